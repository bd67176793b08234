// What models/manifest.json records about the corpora the models were trained
// from, and the check of a corpora directory against it
// (docs/training.md#checking-a-corpora-directory). The combined fingerprint
// says whether anything changed; the per-file digests say which file did, so a
// user who cannot rebuild the same models learns which download to fetch again.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CORPUS_FILES, LEARNED_CORPUS_FILES, type CorpusFile } from "./corpora.js";

/** SHA-256 of one file, or null when the directory lacks it. */
function digestOf(path: string): string | null {
  if (!existsSync(path) || !statSync(path).isFile()) return null;
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** The digest of each file the learned models are trained from, in training order; null for a missing file. */
export function corpusDigests(dir: string, files: readonly CorpusFile[] = LEARNED_CORPUS_FILES): Record<string, string | null> {
  return Object.fromEntries(files.map((f) => [f, digestOf(join(dir, f))]));
}

/**
 * SHA-256 of the learned corpus files' bytes, in training order, and the
 * generator version: `trainingData.fingerprint` of the manifest.
 */
export function combinedFingerprint(dir: string, generatorVersion: number): string {
  const h = createHash("sha256");
  for (const f of LEARNED_CORPUS_FILES) h.update(readFileSync(join(dir, f)));
  h.update(`generators-v${generatorVersion}`);
  return h.digest("hex");
}

/** The part of `trainingData` in models/manifest.json that the check reads. */
export interface RecordedCorpora {
  fingerprint?: string;
  generatorVersion?: number;
  /** Corpus file -> SHA-256; manifests written before it was recorded lack it. */
  files?: Record<string, string>;
}

export type FileState = "same" | "differs" | "missing" | "present" | "not recorded";

export interface FileCheck {
  file: string;
  state: FileState;
  digest: string | null;
  /** The digest the manifest records. */
  recorded?: string;
  /** True for files only the evaluations read: the models do not depend on them and the manifest has no digest of them. */
  evaluationOnly: boolean;
}

export interface CorporaCheck {
  files: FileCheck[];
  /** The directory's combined fingerprint with this code's generator version equals the manifest's; null when a learned file is missing. */
  fingerprintMatches: boolean | null;
  /** The manifest's generator version differs from this code's (undefined when the manifest does not record it). */
  generatorChanged?: { recorded: number; current: number };
  ok: boolean;
}

function learnedFileCheck(file: string, digest: string | null, recorded: RecordedCorpora): FileCheck {
  const want = recorded.files?.[file];
  let state: FileState;
  if (digest === null) state = "missing";
  else if (want === undefined) state = "not recorded";
  else state = want === digest ? "same" : "differs";
  return { file, state, digest, recorded: want, evaluationOnly: false };
}

/**
 * Checks `dir` against what a manifest records. Every file the trainer reads is
 * compared with its recorded digest; files only the evaluations read are
 * reported present or missing.
 */
export function checkCorpora(dir: string, recorded: RecordedCorpora, generatorVersion: number): CorporaCheck {
  const learned = corpusDigests(dir);
  const files = Object.entries(learned).map(([f, d]) => learnedFileCheck(f, d, recorded));
  for (const f of Object.keys(CORPUS_FILES) as CorpusFile[]) {
    if (f in learned) continue;
    const digest = digestOf(join(dir, f));
    files.push({ file: f, state: digest === null ? "missing" : "present", digest, evaluationOnly: true });
  }
  const complete = Object.values(learned).every((d) => d !== null);
  const fingerprintMatches = complete && recorded.fingerprint ? combinedFingerprint(dir, generatorVersion) === recorded.fingerprint : null;
  const generatorChanged =
    recorded.generatorVersion !== undefined && recorded.generatorVersion !== generatorVersion
      ? { recorded: recorded.generatorVersion, current: generatorVersion }
      : undefined;
  const filesOk = files.every((f) => f.state === "same" || f.state === "present" || (f.state === "not recorded" && fingerprintMatches === true));
  return { files, fingerprintMatches, generatorChanged, ok: filesOk && fingerprintMatches !== false && !generatorChanged };
}

const STATE_TEXT: Record<FileState, string> = {
  same: "same",
  differs: "DIFFERS",
  missing: "MISSING",
  present: "present",
  "not recorded": "no digest in the manifest",
};

/** The check as lines a person reads: one per file, then the verdict. */
export function formatCheck(dir: string, manifestPath: string, check: CorporaCheck): string[] {
  const lines = [`corpora ${dir} against ${manifestPath}`];
  const width = Math.max(...check.files.map((f) => f.file.length));
  for (const f of check.files) {
    const role = f.evaluationOnly ? " (evaluation only, not fingerprinted)" : "";
    const detail = f.state === "differs" ? ` sha256 ${f.digest} (manifest ${f.recorded})` : f.digest ? ` sha256 ${f.digest}` : "";
    lines.push(`  ${f.file.padEnd(width)}  ${STATE_TEXT[f.state]}${role}${detail}`);
  }
  if (check.generatorChanged)
    lines.push(
      `generator version: the models were trained with ${check.generatorChanged.recorded}, this code has ${check.generatorChanged.current}; npm run train would not rebuild them`,
    );
  if (check.fingerprintMatches === false && check.files.every((f) => f.state !== "differs" && f.state !== "missing") && !check.generatorChanged)
    lines.push("the combined fingerprint differs, and the manifest has no per-file digests to say which file changed");
  const bad = check.files.filter((f) => f.state === "differs" || f.state === "missing").map((f) => f.file);
  if (check.ok) lines.push("OK: the directory holds the corpus files the models in the manifest were trained from");
  else lines.push(`NOT the corpora of these models${bad.length ? `: ${bad.join(", ")}` : ""}`);
  return lines;
}
