// The corpus files this evaluation reads (from PARAPET_CORPORA; see
// docs/training.md), and the rows of the split:
//   pii_templates.txt          sentence templates (filled in samples.ts)
//   prompt_attack.jsonl        the `benign` rows are clean English text, for false-positive rates
//   multilingual_benign.jsonl  clean text in other languages, for false-positive rates by language
//   profanity_en.csv           terms put into neutral sentences, plain and obfuscated (profanity.ts)
import { EXACT_CORPUS_FILES, readCorpusText, type CorpusFile } from "../corpora.js";
import { LANGUAGE_SPLIT, LOCALES, bucket, type LocaleSpec } from "./held-out.js";
import type { Options, SplitName } from "./options.js";
import { fillTemplates, type Sample } from "./samples.js";

const MULTILINGUAL = "multilingual_benign.jsonl" as const;

/** The files a run needs: the older split (`legacy`) reads no multilingual text. */
export const corpusFiles = (legacy: boolean): CorpusFile[] => (legacy ? EXACT_CORPUS_FILES : [...EXACT_CORPUS_FILES, MULTILINGUAL]);

interface MultilingualRow {
  text: string;
  lang: string;
}

function readTemplates(): string[] {
  return readCorpusText("pii_templates.txt")
    .split(/\r?\n/)
    .filter((l) => l.trim().length > 0);
}

/** The benign rows of prompt_attack.jsonl on the split's side. */
function readBenign(split: SplitName): string[] {
  return readCorpusText("prompt_attack.jsonl")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { text: string; label: string })
    .filter((r) => r.label === "benign" && bucket(r.text) === split)
    .map((r) => r.text);
}

/** Clean text in the split's languages other than English (English rows are in readBenign). */
function readMultilingual(split: SplitName): MultilingualRow[] {
  return readCorpusText(MULTILINGUAL)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as MultilingualRow)
    .filter((r) => r.lang !== "en" && LANGUAGE_SPLIT[r.lang] === split);
}

export interface ProfanityTerm {
  term: string;
  severity: number;
}

/** The single-word terms of profanity_en.csv on the split's side. */
export function readProfanityTerms(split: SplitName): ProfanityTerm[] {
  const rows = readCorpusText("profanity_en.csv").split(/\r?\n/).slice(1).filter(Boolean);
  const terms: ProfanityTerm[] = [];
  for (const row of rows) {
    const cols = row.split(",");
    const term = cols[0];
    const severity = Number(cols[7]);
    // Single words only: the list's multi-word phrases are mostly sexual-act descriptions for the sexual category.
    if (!/^[a-z]+$/.test(term) || bucket(term) !== split) continue;
    terms.push({ term, severity });
  }
  return terms;
}

/** The texts of one run. */
export interface EvalTexts {
  /** Every template of the corpus, and the split's. */
  templates: string[];
  chosen: string[];
  /** The split's locales (none in the older split). */
  locales: readonly LocaleSpec[];
  samples: Sample[];
  /** Clean English text. */
  benign: string[];
  multilingual: MultilingualRow[];
  /** The languages of `multilingual`, sorted. */
  languages: string[];
}

/** Reads the corpora and fills the split's templates (the fakers must be seeded first). */
export function loadTexts({ split, legacy }: Options): EvalTexts {
  const templates = readTemplates();
  const chosen = templates.filter((t) => bucket(t) === split);
  const locales = legacy ? [] : LOCALES.filter((l) => l.split === split);
  const samples = fillTemplates(chosen, locales, legacy);
  const benign = readBenign(split);
  const multilingual = legacy ? [] : readMultilingual(split);
  const languages = [...new Set(multilingual.map((r) => r.lang))].sort();
  return { templates, chosen, locales, samples, benign, multilingual, languages };
}
