#!/usr/bin/env node
// Fails (exit 1) on references to files that do not exist. Plain Node, no dependencies.
//
//   (a) links   Markdown links in README.md and docs/**/*.md ([x](path), ![x](path),
//               [id]: path, <a href>) to a relative file that does not exist; for
//               `file.md#anchor` also that the anchor is a heading of the target
//               (GitHub-style slug). http(s):, mailto: and pure #anchor links are skipped.
//   (b) mentions  repository paths named in comments and strings of source files
//               (src/, bin/): docs/x.md, docs/x.md#anchor, models/x, scripts/x, training/x, ...
//   (c) outside references to documents outside the repository (../shared, shared/corpora,
//               DESIGN.md, STYLE.md, service-spec) from README.md, docs/, src/, test/,
//               scripts/, bench/, training/, examples/.
//
// Usage: node scripts/check-links.mjs [--no-outside] [--only=links,mentions,outside]
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const self = path.relative(root, fileURLToPath(import.meta.url));

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log("usage: node scripts/check-links.mjs [--no-outside] [--only=links,mentions,outside]");
  process.exit(0);
}
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const enabled = (name) => (only ? only.includes(name) : !(name === "outside" && args.includes("--no-outside")));

const SKIP_DIRS = new Set(["node_modules", ".git", "gen", "dist", "data", ".tmp", "coverage", "third_party"]);
const TEXT_EXT = /\.(md|ts|mts|cts|js|mjs|cjs|json|ya?ml|txt|proto|sh)$/;

/** Files under `dir` (repository-relative), recursively, skipping generated and installed trees. */
function walk(dir) {
  const abs = path.join(root, dir);
  if (!existsSync(abs)) return [];
  if (statSync(abs).isFile()) return [dir];
  const out = [];
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

const problems = [];
const report = (file, line, message, target) => problems.push(`${file}:${line}: ${message}: ${target}`);

const textCache = new Map();
function read(rel) {
  if (!textCache.has(rel)) textCache.set(rel, readFileSync(path.join(root, rel), "utf8"));
  return textCache.get(rel);
}

/** Lines of a Markdown file with fenced code blocks blanked (line numbers kept). */
function proseLines(text) {
  const lines = text.split("\n");
  let fence = null;
  return lines.map((line) => {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && /^\s*$/.test(line.slice(line.indexOf(m[1]) + m[1].length))) fence = null;
      return "";
    }
    if (m) {
      fence = m[1];
      return "";
    }
    return line;
  });
}

/** GitHub's heading anchor: lower-case, punctuation dropped, each space a hyphen; repeats get -1, -2, ... */
function slugify(heading) {
  const text = heading
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1") // images -> alt
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1") // links -> text
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, "$1") // reference links -> text
    .replace(/<[^>]+>/g, "") // html tags
    .replace(/`([^`]*)`/g, "$1") // code spans -> content
    .replace(/(^|\s)[*_~]+|[*_~]+(\s|$)/g, "$1$2") // emphasis delimiters at word edges
    .replace(/\*\*|~~/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const anchorCache = new Map();
/** Anchors a Markdown file defines: heading slugs (with GitHub's -N suffixes) and explicit <a name|id>. */
function anchorsOf(rel) {
  if (anchorCache.has(rel)) return anchorCache.get(rel);
  const anchors = new Set();
  const seen = new Map();
  const add = (slug) => {
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  };
  const lines = proseLines(read(rel));
  lines.forEach((line, i) => {
    const atx = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (atx) add(slugify(atx[1]));
    else if (i > 0 && /^ {0,3}(=+|-+)\s*$/.test(line) && lines[i - 1].trim() && !/^\s*([-*+]\s|\|)/.test(lines[i - 1]) && !/^ {0,3}#/.test(lines[i - 1]))
      add(slugify(lines[i - 1])); // setext heading
    for (const m of line.matchAll(/<a\s[^>]*(?:name|id)\s*=\s*["']([^"']+)["']/gi)) anchors.add(m[1]);
  });
  anchorCache.set(rel, anchors);
  return anchors;
}

/** Checks `target` (a repository-relative path, maybe with #anchor); returns an error message or null. */
function checkTarget(rel, anchor) {
  const clean = rel.replace(/\/+$/, "");
  if (clean.startsWith("..") || path.isAbsolute(clean)) return "points outside the repository";
  const abs = path.join(root, clean);
  if (!existsSync(abs)) return "no such file";
  if (anchor && /\.md$/i.test(clean) && statSync(abs).isFile()) {
    const want = decodeURIComponent(anchor).toLowerCase();
    if (!anchorsOf(clean).has(want)) return `no heading #${anchor} in ${clean}`;
  }
  return null;
}

// (a) Markdown links ---------------------------------------------------------
function checkMarkdownLinks() {
  const files = ["README.md", ...walk("docs").filter((f) => f.endsWith(".md"))].filter((f) => existsSync(path.join(root, f)));
  for (const file of files) {
    proseLines(read(file)).forEach((raw, i) => {
      const line = raw.replace(/(`+)(?:(?!\1).)+?\1/g, (s) => " ".repeat(s.length)); // drop code spans
      const targets = [];
      for (const m of line.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s)]+(?:\([^\s)]*\)[^\s)]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g))
        targets.push(m[1]);
      const def = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
      if (def) targets.push(def[1]);
      for (const m of line.matchAll(/<(?:a|img)\s[^>]*(?:href|src)\s*=\s*["']([^"']+)["']/gi)) targets.push(m[1]);
      for (let target of targets) {
        target = target.replace(/^<|>$/g, "");
        if (!target || target.startsWith("#") || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
        const [pathPart, anchor] = target.split("#", 2);
        let decoded;
        try {
          decoded = decodeURIComponent(pathPart.split("?")[0]);
        } catch {
          decoded = pathPart;
        }
        const rel = decoded.startsWith("/") ? decoded.slice(1) : path.posix.join(path.posix.dirname(file), decoded);
        const error = checkTarget(path.posix.normalize(rel), anchor);
        if (error) report(file, i + 1, `broken link (${error})`, target);
      }
    });
  }
}

// (b) repository paths mentioned in source comments and strings -------------
const MENTION_ROOTS = ["docs", "models", "scripts", "training", "proto", "bench", "examples", "test", "bin"];
const MENTION = new RegExp(`(?<![\\w./@$-])((?:${MENTION_ROOTS.join("|")})/[\\w./-]*)(#[\\w-]+)?`, "g");

function checkSourceMentions() {
  const files = [...walk("src"), ...walk("bin")].filter((f) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(f));
  for (const file of files) {
    read(file)
      .split("\n")
      .forEach((line, i) => {
        for (const m of line.matchAll(MENTION)) {
          const after = line[m.index + m[0].length] ?? "";
          if (/[*{}<$]/.test(after) || /[*{}<$]/.test(m[1])) continue; // globs and templates name no single file
          const rel = m[1].replace(/[.,:;]+$/, ""); // sentence punctuation
          const anchor = m[2]?.slice(1);
          const error = checkTarget(rel, anchor);
          if (error) report(file, i + 1, `mentions a path that does not exist (${error})`, rel + (anchor ? `#${anchor}` : ""));
        }
      });
  }
}

// (c) references to documents outside the repository ------------------------
const OUTSIDE = [
  [/(?:^|[^\w.])\.\.\/(?:\.\.\/)*shared(?![\w-])/, "../shared"],
  [/(?<![\w-])shared\/corpora(?![\w-])/, "shared/corpora"],
  [/(?<![\w-])DESIGN\.md\b/, "DESIGN.md"],
  [/(?<![\w-])STYLE\.md\b/, "STYLE.md"],
  [/(?<![\w-])service-spec(?![a-z])/i, "service-spec"],
];

function checkOutsideReferences() {
  const files = ["README.md", ...["docs", "src", "test", "scripts", "bench", "training", "examples"].flatMap(walk)].filter(
    (f) => f !== self && TEXT_EXT.test(f) && existsSync(path.join(root, f)),
  );
  for (const file of files) {
    read(file)
      .split("\n")
      .forEach((line, i) => {
        for (const [re, name] of OUTSIDE) if (re.test(line)) report(file, i + 1, "refers to a document outside the repository", name);
      });
  }
}

if (enabled("links")) checkMarkdownLinks();
if (enabled("mentions")) checkSourceMentions();
if (enabled("outside")) checkOutsideReferences();

if (problems.length) {
  for (const p of problems) console.log(p);
  console.log(`\n${problems.length} broken reference${problems.length === 1 ? "" : "s"}`);
  process.exit(1);
}
console.log("links ok");
