// npm run corpora:check -- [DIR] [--models DIR] — is DIR (default: the
// directory in PARAPET_CORPORA) the corpora the shipped models were trained
// from? Compares each corpus file with the digest models/manifest.json records
// and names every file that differs or is missing
// (docs/training.md#checking-a-corpora-directory). Exit status 0 when the
// directory matches, 1 when it does not, 2 on a usage error.
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { CORPORA_ENV } from "./corpora.js";
import { checkCorpora, formatCheck, type RecordedCorpora } from "./corpora-fingerprint.js";
import { GENERATOR_VERSION } from "./datasets.js";

const USAGE = `usage: npm run corpora:check -- [DIR] [--models DIR]
  DIR       the corpora directory (default: $${CORPORA_ENV})
  --models  the directory of the manifest.json to check against (default: the repository's models/)`;

function fail(message: string): never {
  console.error(`corpora:check: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArgs(argv: string[]): { dir: string; manifestPath: string } {
  let dir: string | undefined;
  let models: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--models") models = argv[++i] ?? fail("--models needs a directory");
    else if (a === "--help" || a === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else if (a.startsWith("-")) fail(`unknown option ${a}`);
    else if (dir === undefined) dir = a;
    else fail(`one corpora directory only (got ${dir} and ${a})`);
  }
  dir ??= process.env[CORPORA_ENV] || fail(`name the corpora directory, or set ${CORPORA_ENV}`);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`${dir} is not a directory`);
  const manifestPath = models ? resolve(models, "manifest.json") : new URL("../models/manifest.json", import.meta.url).pathname;
  if (!existsSync(manifestPath)) fail(`no manifest at ${manifestPath}`);
  return { dir: resolve(dir), manifestPath };
}

const { dir, manifestPath } = parseArgs(process.argv.slice(2));
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { trainingData?: RecordedCorpora };
const check = checkCorpora(dir, manifest.trainingData ?? {}, GENERATOR_VERSION);
for (const line of formatCheck(dir, manifestPath, check)) console.log(line);
process.exit(check.ok ? 0 : 1);
