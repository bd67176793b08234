// Generated moderation data, written for this project (the phrase tables are
// in ../phrases/moderation.json). Positives state harmful intent or content; hard
// negatives use the same sensitive words in safe contexts (news, medicine,
// history, software, recovery, prevention), so the heads learn intent, not
// topic. Templates are the split groups.
import { readFileSync } from "node:fs";
import type { Rng } from "../prng.js";
import { fill } from "./prompts.js";

export const CATEGORIES = ["hate", "sexual", "violence", "weapons", "crime", "self_harm"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface GeneratedModeration {
  text: string;
  categories: Category[];
  group: string;
}

type Tpl = [string, Category[]];
type IntentSet = "threat" | "howto";

interface ModerationTables {
  slots: Record<string, string[]>;
  chemicals: string[];
  positive: Tpl[];
  negative: string[];
  intents: Record<IntentSet, string[]>;
  endings: string[];
  /** `intentSets` names lists of `intents` to use, in order, instead of listing the intents again. */
  grammar: { category: Category[]; intents?: string[]; intentSets?: IntentSet[]; acts: string[]; endings?: string[] }[];
  safeGrammar: { intents: string[]; acts: string[] }[];
}

/** The phrase tables. Their order is part of the generated data: the PRNG picks by index. */
const tables = JSON.parse(readFileSync(new URL("../phrases/moderation.json", import.meta.url), "utf8")) as ModerationTables;

const M = tables.slots;
const POSITIVE: Tpl[] = tables.positive;
const NEGATIVE: string[] = tables.negative;

export function generateModerationData(r: Rng, n = 1): GeneratedModeration[] {
  const out: GeneratedModeration[] = [];
  POSITIVE.forEach(([t, cats], i) => {
    for (let k = 0; k < 10 * n; k++) out.push({ text: fill(r, t, M), categories: cats, group: `gen:mod:pos:${i}` });
  });
  NEGATIVE.forEach((t, i) => {
    for (let k = 0; k < 8 * n; k++) out.push({ text: fill(r, t, M), categories: [], group: `gen:mod:neg:${i}` });
  });
  return out;
}

// ---- combinatorial grammar: intent x act x ending, grouped by act ----
// Words carry the category (stab, sarin, overdose); the framing carries the
// intent (first person, "how do I", imperative) versus report or care.

const INTENT = tables.intents;
const ENDINGS = tables.endings;
const GRAMMAR: { category: Category[]; intents: readonly string[]; acts: string[]; endings?: string[] }[] = tables.grammar.map(({ intentSets, ...g }) => ({
  ...g,
  intents: g.intents ?? (intentSets ?? []).flatMap((k) => INTENT[k]),
}));
const SAFE_GRAMMAR: { intents: string[]; acts: string[] }[] = tables.safeGrammar;

export function generateModerationGrammar(r: Rng, n = 1): GeneratedModeration[] {
  const out: GeneratedModeration[] = [];
  const slots = { ...M, chem: tables.chemicals };
  GRAMMAR.forEach((g, gi) => {
    g.acts.forEach((act, ai) => {
      for (let k = 0; k < 8 * n; k++) {
        const intent = g.intents[Math.floor(r() * g.intents.length)];
        const ending = (g.endings ?? ENDINGS)[Math.floor(r() * (g.endings ?? ENDINGS).length)];
        const sentence = fill(r, `${intent} ${act}${ending}`.trim(), slots);
        const text =
          sentence.endsWith(".") || sentence.endsWith("!") || sentence.endsWith("?")
            ? sentence
            : sentence + (intent.startsWith("How") || intent.startsWith("What") ? "?" : ".");
        // Labels as the corpora give them: a weapon meant to hurt people is also violence. Violence is not also crime:
        // of the corpora's 4,800 violent rows, 290 are labelled crime too (AILuminate's violent crimes, XSafety's crimes).
        const categories = new Set<Category>(g.category);
        if (g.category.includes("weapons") && /hurt|attack|kill|blow up/.test(ending + act)) categories.add("violence");
        out.push({ text: text[0].toUpperCase() + text.slice(1), categories: [...categories], group: `gen:mod:grammar:${gi}:${ai}` });
      }
    });
  });
  SAFE_GRAMMAR.forEach((g, gi) => {
    g.acts.forEach((act, ai) => {
      for (let k = 0; k < 5 * n; k++) {
        const intent = g.intents[Math.floor(r() * g.intents.length)];
        const question = /^(How|What|Is|Where)/.test(intent) || /^(how|what|can|is|which|should)\b/.test(act);
        const body = intent.endsWith(".") ? act[0].toUpperCase() + act.slice(1) : act;
        const text = fill(r, `${intent} ${body}${question ? "?" : "."}`, slots);
        out.push({ text, categories: [], group: `gen:mod:safe:${gi}:${ai}` });
      }
    });
  });
  return out;
}
