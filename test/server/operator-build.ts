// The compiled service in a directory of its own, for the operator-*.test.ts files that start it as
// a process: test/support/global-setup.ts rebuilds the checkout's dist/ (removing it first) whenever a
// test run starts, so a process started from there can find it gone. The directory has what the
// service reads from the project root (src/paths.ts) as links to the checkout.
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildService } from "../../scripts/build.mjs";

const checkout = path.resolve(import.meta.dirname, "../..");

export interface PrivateBuild {
  /** The project root of the build: cwd for the service. */
  root: string;
  main: string;
  remove(): void;
}

export async function privateBuild(): Promise<PrivateBuild> {
  const root = fs.mkdtempSync(path.join(tmpdir(), "parapet-operator-build-"));
  for (const entry of ["models", "src", "node_modules", "package.json"]) fs.symlinkSync(path.join(checkout, entry), path.join(root, entry));
  const main = await buildService(path.join(root, "dist"));
  return { root, main, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}
