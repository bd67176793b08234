#!/usr/bin/env node
// `npm run build` of @parapet/client: compiles the sources and the generated
// code with tsc (JavaScript and .d.ts) into dist/ and writes dist/package.json,
// whose exports point at the compiled files. dist/ is the package as
// published (`npm publish dist`); the workspace's own package.json points at
// the TypeScript sources so the repository's examples and tests need no build.
//   node scripts/build.mjs [--out-dir=<dir>]
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// tsconfig.json compiles from the repository root: the sources land under this prefix in dist/.
const sourcePrefix = path.relative(path.resolve(packageDir, "../.."), packageDir).split(path.sep).join("/");

const outArg = process.argv.slice(2).find((a) => a.startsWith("--out-dir="));
const outDir = path.resolve(packageDir, outArg ? outArg.slice("--out-dir=".length) : "dist");

rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(packageDir, "tsconfig.json"), "--outDir", outDir], { stdio: "inherit" });

const manifest = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
const compiled = (source, extension) => `./${sourcePrefix}/${source.replace(/^\.\//, "").replace(/\.ts$/, extension)}`;
const published = {
  name: manifest.name,
  version: manifest.version,
  description: manifest.description,
  license: manifest.license,
  type: manifest.type,
  sideEffects: manifest.sideEffects,
  engines: manifest.engines,
  exports: Object.fromEntries(
    Object.entries(manifest.exports).map(([subpath, source]) => [subpath, { types: compiled(source, ".d.ts"), default: compiled(source, ".js") }]),
  ),
  dependencies: manifest.dependencies,
};
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
copyFileSync(path.join(packageDir, "README.md"), path.join(outDir, "README.md"));
