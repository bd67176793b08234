#!/usr/bin/env node
// `npm run build` (also the first half of `npm start`): compiles src/ and gen/
// to plain JavaScript in dist/, one file per module, same layout. Running the
// compiled service instead of the sources through tsx saves tsx's loader
// thread and its esbuild process in the service and in every screening worker
// (about 90 MB of resident memory; docs/operations.md). Type checking is
// `npm run typecheck`; this only strips types (about half a second).
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function sources(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => path.join(e.parentPath ?? e.path, e.name));
}

/** `outdir`: elsewhere for tests that assemble a tree like the container image's (test/server/operator-deploy.test.ts). */
export async function buildService(outdir = path.join(root, "dist")) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [...sources("src"), ...sources("gen")],
    outdir,
    outbase: root,
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: false,
    sourcemap: "linked",
    logLevel: "warning",
  });
  return path.join(outdir, "src/main.js");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildService();
}
