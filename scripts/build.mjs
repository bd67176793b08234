#!/usr/bin/env node
// `npm run build` (also the first half of `npm start`): compiles src/ and gen/
// to plain JavaScript in dist/, one file per module, same layout. Running the
// compiled service instead of the sources through tsx saves tsx's loader
// thread and its esbuild process in the service and in every screening worker
// (about 90 MB of resident memory; docs/operations.md). Type checking is
// `npm run typecheck`; this only strips types (about half a second).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  await buildConsole(path.join(outdir, "console"));
  return path.join(outdir, "src/main.js");
}

/**
 * The browser console (docs/console.md): console/src bundled and minified for
 * browsers into `outdir/assets` with content hashes in the names, and the
 * index page that names them. src/server/console.ts serves `outdir` at /console.
 */
export async function buildConsole(outdir = path.join(root, "dist", "console")) {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: [path.join(root, "console/src/main.tsx")],
    outdir: path.join(outdir, "assets"),
    entryNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: ["chrome109", "firefox115", "safari16"],
    jsx: "automatic",
    jsxImportSource: "preact",
    tsconfig: path.join(root, "console/tsconfig.json"),
    metafile: true,
    absWorkingDir: root,
    legalComments: "none",
    logLevel: "warning",
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => path.relative(outdir, path.resolve(root, f)).split(path.sep).join("/"));
  const script = outputs.find((f) => f.endsWith(".js"));
  const style = outputs.find((f) => f.endsWith(".css"));
  mkdirSync(outdir, { recursive: true });
  // The tab icon, content-hashed like the bundles (every asset is served as immutable). Named by
  // a <link> so that browsers do not ask the API origin for /favicon.ico.
  const icon = readFileSync(path.join(root, "console/src/favicon.svg"));
  const iconName = `assets/favicon-${createHash("sha256").update(icon).digest("hex").slice(0, 8).toUpperCase()}.svg`;
  writeFileSync(path.join(outdir, iconName), icon);
  // No inline script or style: the Content-Security-Policy allows files from this origin only.
  writeFileSync(
    path.join(outdir, "index.html"),
    `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Parapet console</title>
<link rel="icon" type="image/svg+xml" href="/console/${iconName}">
<link rel="stylesheet" href="/console/${style}">
<script type="module" src="/console/${script}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading the Parapet console…</p></div>
<noscript>The Parapet console needs JavaScript.</noscript>
</body>
</html>
`,
  );
  return outdir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildService();
}
