#!/usr/bin/env bash
# `npm run lint`: every static check, each one run even when an earlier one
# fails; exits non-zero if any failed and names them. The checks are the
# package.json scripts lint:<name>. Run a subset with `npm run lint -- eslint links`.
set -uo pipefail
cd "$(dirname "$0")/.."

checks=("$@")
[ ${#checks[@]} -eq 0 ] && checks=(eslint deps format unused links openapi)

failed=()
for name in "${checks[@]}"; do
  echo "::: lint:$name"
  start=$(date +%s%N)
  if npm run --silent "lint:$name"; then status=ok; else status=FAILED; failed+=("$name"); fi
  echo "::: lint:$name $status ($(( ($(date +%s%N) - start) / 1000000 )) ms)"
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "lint failed: ${failed[*]}"
  exit 1
fi
echo "lint ok"
