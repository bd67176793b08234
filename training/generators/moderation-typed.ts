// Harm as people type it into a chat box (issue 27, item 2), written for this
// project (the phrase tables are in ../phrases/moderation-typed.json). The
// corpora's harmful requests and this project's grammar are written like
// benchmark prompts: capitalised, complete, "Explain step by step how to";
// real users write "how do i get into my ex's insta", lowercase, with "u",
// typos, "asking for a friend" or a story wrapped around the request. The
// heads learned the benchmark register as part of harm, so real requests
// scored low. Here the same harmful acts come in that register, and safe
// questions on the same topics (spotting a scam, helping a friend, recovery,
// safe doses, sex education, idioms) come in the same register, so the
// register itself carries no label; `asTyped` also rewrites a share of the
// grammar's rows, positive and safe alike.
import { readFileSync } from "node:fs";
import { pick, type Rng } from "../prng.js";
import type { Category, GeneratedModeration } from "./moderation.js";
import { fill } from "./prompts.js";

interface TypedTables {
  slots: Record<string, string[]>;
  asks: string[];
  harmful: { categories: Category[]; acts: string[] }[];
  threats: [string, Category[]][];
  threatSlots: Record<string, string[]>;
  safe: string[];
}

/** The phrase tables. Their order is part of the generated data: the PRNG picks by index. */
const tables = JSON.parse(readFileSync(new URL("../phrases/moderation-typed.json", import.meta.url), "utf8")) as TypedTables;

/** Chat shorthand: word-level swaps users make, each applied with some probability. */
const SHORTHAND: [RegExp, string][] = [
  [/\byou\b/gi, "u"],
  [/\byour\b/gi, "ur"],
  [/\bplease\b/gi, "pls"],
  [/\bpeople\b/gi, "ppl"],
  [/\bbecause\b/gi, "cuz"],
  [/\bright now\b/gi, "rn"],
  [/\bI'm\b/g, "im"],
  [/\bdon't\b/gi, "dont"],
  [/\bcan't\b/gi, "cant"],
  [/\bwhat's\b/gi, "whats"],
  [/\bgoing to\b/gi, "gonna"],
  [/\bwant to\b/gi, "wanna"],
];
const OPENERS = ["", "", "", "hey ", "ok ", "so ", "hi, ", "quick question: ", "lol ", "ngl "];
const CLOSERS = ["", "", "", "?", "??", " pls", " asap", " thx", " lol", " fr", "."];

/** One typo in a longer word: two neighbouring letters swapped or a letter dropped. */
function typo(r: Rng, text: string): string {
  const words = text.split(" ");
  const long = words.map((w, i) => [w, i] as const).filter(([w]) => /^[a-z]{5,}$/.test(w));
  if (!long.length) return text;
  const [w, i] = pick(r, long);
  const at = 1 + Math.floor(r() * (w.length - 3));
  words[i] = r() < 0.5 ? w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2) : w.slice(0, at) + w.slice(at + 1);
  return words.join(" ");
}

/** A text as someone might type it: lowercased, shorthand, no final punctuation, an opener or closer, sometimes a typo. */
export function asTyped(r: Rng, text: string): string {
  let t = r() < 0.8 ? text.toLowerCase() : text;
  for (const [re, to] of SHORTHAND) if (r() < 0.6) t = t.replace(re, to);
  if (r() < 0.6) t = t.replace(/[.?!]+$/, "");
  if (r() < 0.5) t = t.replace(/'/g, "");
  t = pick(r, OPENERS) + t + (/[?.!]$/.test(t) ? "" : pick(r, CLOSERS));
  if (r() < 0.3) t = typo(r, t);
  return t.trim();
}

/**
 * Harmful asks (an ask frame around an act), threats and disclosures, and safe questions, all typed; and a
 * typed copy of every row of `grammarRows` (the grammar's harmful and safe rows), in the same split group.
 */
export function generateTypedModeration(r: Rng, grammarRows: GeneratedModeration[], n = 1): GeneratedModeration[] {
  const out: GeneratedModeration[] = [];
  const slots = { ...tables.slots, ...tables.threatSlots };
  tables.harmful.forEach((h, hi) => {
    h.acts.forEach((act, ai) => {
      for (let k = 0; k < 20 * n; k++) {
        const text = fill(r, pick(r, tables.asks).replace("{act}", act), slots);
        out.push({ text: asTyped(r, text), categories: h.categories, group: `gen:modtyped:${hi}:${ai}` });
      }
    });
  });
  tables.threats.forEach(([t, categories], i) => {
    for (let k = 0; k < 20 * n; k++) out.push({ text: asTyped(r, fill(r, t, slots)), categories, group: `gen:modtyped:threat:${i}` });
  });
  tables.safe.forEach((t, i) => {
    for (let k = 0; k < 20 * n; k++) out.push({ text: asTyped(r, fill(r, t, slots)), categories: [], group: `gen:modtyped:safe:${i}` });
  });
  for (const g of grammarRows) out.push({ ...g, text: asTyped(r, g.text) });
  return out;
}
