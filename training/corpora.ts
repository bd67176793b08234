// Where the training and evaluation code finds the corpora: the directory
// named by the PARAPET_CORPORA environment variable, and nowhere else. The
// corpora are public labelled data sets that are not part of the repository
// (docs/training.md lists the files, their formats and sources). Every read of
// a corpus file goes through this module.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const CORPORA_ENV = "PARAPET_CORPORA";

/** The corpus files the training and evaluation code reads, and what it reads them for. */
export const CORPUS_FILES = {
  "prompt_attack.jsonl": "prompt_attack training and evaluation; benign rows as clean text for eval-exact",
  "prompt_attack_extra.jsonl": "prompt_attack training and evaluation: agent-task and tool-result injections, varied benign prompts",
  "moderation.jsonl": "moderated_content training and evaluation; casual rows as prompt_attack negatives",
  "moderation_intent.jsonl": "moderated_content training and evaluation: harmful requests and statements, self-harm disclosures, hard safe contrasts",
  "multilingual.jsonl": "moderated_content training and evaluation: harmful prompts in ten languages",
  "moderation_multilingual_extra.jsonl":
    "moderated_content training (hate tests in ten languages, Chinese and Korean comments, emoji hate, short harmful requests) and evaluation; XSafety rows evaluation only",
  "multilingual_benign.jsonl": "negatives in nineteen languages for prompt_attack and moderated_content",
  "tool_payloads.jsonl": "tool_risk/payload positives",
  "tool_agent.jsonl": "eval-agent: tool definitions with CRUD labels, agent tasks, attacker and normal tools (evaluation only)",
  "pii_templates.txt": "PII sentence templates for eval-exact",
  "profanity_en.csv": "profanity terms for eval-exact",
} as const;
export type CorpusFile = keyof typeof CORPUS_FILES;

/** Files read by `training/train.ts` and `training/eval-learned.ts`. */
export const LEARNED_CORPUS_FILES: CorpusFile[] = [
  "prompt_attack.jsonl",
  "prompt_attack_extra.jsonl",
  "moderation.jsonl",
  "moderation_intent.jsonl",
  "multilingual.jsonl",
  "moderation_multilingual_extra.jsonl",
  "multilingual_benign.jsonl",
  "tool_payloads.jsonl",
];
/** Files read by `training/eval-exact/` (`npm run eval:exact`). */
export const EXACT_CORPUS_FILES: CorpusFile[] = ["pii_templates.txt", "prompt_attack.jsonl", "profanity_en.csv"];

export class CorporaError extends Error {}

function problem(what: string, files: readonly string[]): CorporaError {
  return new CorporaError(
    `${what}\nSet ${CORPORA_ENV} to the directory that holds the corpus files (${files.join(", ")}); docs/training.md lists them and where they come from.`,
  );
}

/** The corpora directory from PARAPET_CORPORA; throws a CorporaError when it is unset or not a directory. */
export function corporaDir(files: readonly string[] = Object.keys(CORPUS_FILES)): string {
  const dir = process.env[CORPORA_ENV];
  if (!dir) throw problem(`${CORPORA_ENV} is not set.`, files);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw problem(`${CORPORA_ENV}=${dir} is not a directory.`, files);
  return dir;
}

/** Path of one corpus file; throws a CorporaError when it is missing. */
export function corpusPath(file: CorpusFile): string {
  const path = join(corporaDir([file]), file);
  if (!existsSync(path)) throw problem(`Corpus file missing: ${path}.`, [file]);
  return path;
}

export function readCorpus(file: CorpusFile): Buffer {
  return readFileSync(corpusPath(file));
}

export function readCorpusText(file: CorpusFile): string {
  return readFileSync(corpusPath(file), "utf8");
}

/** One JSON object a line; blank lines skipped. */
export function readJsonl<T>(file: CorpusFile): T[] {
  return readCorpusText(file)
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/**
 * For command-line entry points: checks that the corpora directory holds every
 * file the command reads, before any work; otherwise prints what to set and exits.
 */
export function requireCorpora(command: string, files: readonly CorpusFile[]): void {
  try {
    const dir = corporaDir(files);
    const missing = files.filter((f) => !existsSync(join(dir, f)));
    if (missing.length) throw problem(`${command}: ${dir} has no ${missing.join(", ")}.`, files);
  } catch (e) {
    if (!(e instanceof CorporaError)) throw e;
    console.error(e.message.startsWith(command) ? e.message : `${command}: ${e.message}`);
    process.exit(1);
  }
}
