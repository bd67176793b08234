// Builds models/char-lm.bin, the character 4-gram model that the obfuscation
// views ask how unlike language a run of words is (src/screening/detectors/learned/runtime/char-lm.ts).
// Trained on benign text only, so that what it finds expensive is what
// ordinary prompts, documents and code never write. Interpolated Witten-Bell
// smoothing; the 4-grams seen twice or more are kept in a hash table, the rest
// back off to the full 3-gram table. Deterministic: same corpora, same bytes.
//
// `tsx training/char-lm.ts [--out DIR] [--report]` rebuilds the file alone and
// (--report) prints how often the views fire on held-out benign rows and on
// generated suffix attacks (docs/obfuscation.md).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  ALPHABET,
  CHAR_LM_FILE,
  EMPTY,
  QUANT,
  USED_SYMBOLS,
  encodeCharLm,
  slotOf,
  symbolOf,
  useCharLm,
  type CharLm,
} from "../src/screening/detectors/learned/runtime/char-lm.js";
import { expand } from "../src/screening/detectors/learned/runtime/text-views.js";
import { readJsonl } from "./corpora.js";
import { generateSuffixData } from "./generators/suffixes.js";
import { rng, stableHash } from "./prng.js";

/** Table size of the 4-grams (2^18 slots of 4 bytes; about 40% full). */
const BITS = 18;
/** 4-grams seen once are left to the 3-gram backoff: one sighting is as often a typo, an id or a name as language. */
const MIN_COUNT = 2;

/** One row in five is never trained on, so the rates it is measured with are honest. */
const heldOut = (text: string): boolean => stableHash(text) % 5 === 0;

interface Row {
  text: string;
  label?: string;
  source: string;
  lang?: string;
}

/** Benign rows of the corpora the model learns from, with where they came from (for the report). */
function benignRows(): Row[] {
  const pa = [...readJsonl<Row>("prompt_attack.jsonl"), ...readJsonl<Row>("prompt_attack_extra.jsonl")].filter((r) => r.label === "benign");
  const ml = readJsonl<Row>("multilingual_benign.jsonl").map((r) => ({ ...r, source: `${r.source}:${r.lang}` }));
  const seen = new Set<string>();
  return [...pa, ...ml].filter((r) => !seen.has(r.text) && (seen.add(r.text), true));
}

const T3 = ALPHABET ** 3;
const T4 = ALPHABET ** 4;

function count(texts: string[]): Uint32Array {
  const c4 = new Uint32Array(T4);
  for (const t of texts) {
    let ctx = 0;
    let prevSpace = true;
    const add = (s: number) => {
      c4[(ctx << 6) | s]++;
      ctx = ((ctx << 6) | s) & 0x3ffff;
    };
    for (let i = 0; i < t.length; i++) {
      const s = symbolOf(t.charCodeAt(i));
      if (s >= ALPHABET) continue;
      if (s === 0) {
        if (!prevSpace) add(0);
        prevSpace = true;
        continue;
      }
      prevSpace = false;
      add(s);
    }
    if (!prevSpace) add(0);
  }
  return c4;
}

const q = (p: number) => Math.min(255, Math.round(-Math.log2(p) * QUANT));

/** Interpolated Witten-Bell over orders 1-4, from the 4-gram counts. */
function trainCharLm(texts: string[]): CharLm {
  const c4 = count(texts);
  // Lower-order counts are marginals of the 4-gram counts: c3[bcd] = sum over a.
  const c3 = new Float64Array(T3);
  for (let k = 0; k < T4; k++) if (c4[k]) c3[k & (T3 - 1)] += c4[k];
  const c2 = new Float64Array(ALPHABET ** 2);
  for (let k = 0; k < T3; k++) if (c3[k]) c2[k & (ALPHABET ** 2 - 1)] += c3[k];
  const c1 = new Float64Array(ALPHABET);
  for (let k = 0; k < ALPHABET ** 2; k++) if (c2[k]) c1[k & (ALPHABET - 1)] += c2[k];

  /** Per context: lambda = N / (N + T) (T = distinct next symbols). */
  const lambdas = (counts: ArrayLike<number>, contexts: number): Float64Array => {
    const l = new Float64Array(contexts);
    for (let ctx = 0; ctx < contexts; ctx++) {
      let n = 0;
      let t = 0;
      for (let d = 0; d < ALPHABET; d++) {
        const v = counts[ctx * ALPHABET + d];
        n += v;
        if (v) t++;
      }
      l[ctx] = n ? n / (n + t) : 0;
    }
    return l;
  };
  const l0 = lambdas(c1, 1)[0];
  const n1 = c1.reduce((a, b) => a + b, 0);
  const p1 = new Float64Array(ALPHABET);
  for (let d = 0; d < USED_SYMBOLS; d++) p1[d] = l0 * (c1[d] / n1) + (1 - l0) / USED_SYMBOLS;
  const l1 = lambdas(c2, ALPHABET);
  const p2 = new Float64Array(ALPHABET ** 2);
  for (let c = 0; c < ALPHABET; c++) {
    const n = c1[c];
    for (let d = 0; d < ALPHABET; d++) p2[c * ALPHABET + d] = (n ? l1[c] * (c2[c * ALPHABET + d] / n) : 0) + (1 - l1[c]) * p1[d];
  }
  const l2 = lambdas(c3, ALPHABET ** 2);
  const p3 = new Float64Array(T3);
  for (let bc = 0; bc < ALPHABET ** 2; bc++) {
    let n = 0;
    for (let d = 0; d < ALPHABET; d++) n += c3[bc * ALPHABET + d];
    for (let d = 0; d < ALPHABET; d++) p3[bc * ALPHABET + d] = (n ? l2[bc] * (c3[bc * ALPHABET + d] / n) : 0) + (1 - l2[bc]) * p2[(bc & 63) * ALPHABET + d];
  }
  const q3 = new Uint8Array(T3);
  for (let k = 0; k < T3; k++) q3[k] = (k & 63) < USED_SYMBOLS ? q(p3[k]) : 255;

  const bow3 = new Uint8Array(T3);
  const slots = new Uint32Array(1 << BITS).fill(EMPTY);
  const mask = (1 << BITS) - 1;
  let stored = 0;
  for (let abc = 0; abc < T3; abc++) {
    let n = 0;
    let t = 0;
    for (let d = 0; d < ALPHABET; d++) {
      const v = c4[abc * ALPHABET + d];
      n += v;
      if (v) t++;
    }
    if (!n) continue;
    const lambda = n / (n + t);
    bow3[abc] = q(1 - lambda);
    const bc = abc & (ALPHABET ** 2 - 1);
    for (let d = 0; d < ALPHABET; d++) {
      const v = c4[abc * ALPHABET + d];
      if (v < MIN_COUNT) continue;
      const value = q(lambda * (v / n) + (1 - lambda) * p3[bc * ALPHABET + d]);
      const key = abc * ALPHABET + d;
      if (value === Math.min(255, bow3[abc] + q3[key & (T3 - 1)])) continue; // the backoff says the same
      if (++stored > mask * 0.7) throw new Error("char-lm: 4-gram table too full; raise BITS");
      let s = slotOf(key, BITS);
      while (slots[s] !== EMPTY) s = (s + 1) & mask;
      slots[s] = ((key << 8) | value) >>> 0;
    }
  }
  return { q3, bow3, slots, bits: BITS };
}

/**
 * Trains on the benign corpus rows (held-out fifth excluded), writes
 * char-lm.bin into outDir, and makes this process use it: the text features
 * computed afterwards must be the ones the shipped file will give.
 */
export function buildCharLm(outDir: URL): CharLm {
  const texts = benignRows()
    .filter((r) => !heldOut(r.text))
    .map((r) => r.text);
  const lm = trainCharLm(texts);
  writeFileSync(new URL(CHAR_LM_FILE, outDir), encodeCharLm(lm));
  useCharLm(lm);
  return lm;
}

const VIEW_MARKERS = ["xxgibberish", "xxgibberish2", "xxrot13", "xxurlenc"];

/**
 * How often each new view fires, per source: on benign rows the model was not
 * trained on (and, for comparison, on those it was), on the corpora's attacks,
 * on tweets, and on the generated suffix attacks and their hard negatives.
 */
function report(): void {
  const rows: { group: string; text: string }[] = [];
  for (const r of benignRows())
    rows.push({ group: `benign ${heldOut(r.text) ? "held-out" : "trained"} ${r.source.split(":")[0]}${r.lang ? ":" + r.lang : ""}`, text: r.text });
  for (const r of [...readJsonl<Row>("prompt_attack.jsonl"), ...readJsonl<Row>("prompt_attack_extra.jsonl")])
    if (r.label === "attack") rows.push({ group: `attack ${r.source.split(":")[0]}`, text: r.text });
  for (const r of readJsonl<Row>("moderation.jsonl")) if (/^davidson/.test(r.source)) rows.push({ group: "tweets davidson", text: r.text });
  // Recall of the decoders: English rows the model was not trained on, encoded.
  const english = benignRows().filter((r) => heldOut(r.text) && /^(gsm8k|medquad|alpaca_eval)|^xquad:en/.test(r.source));
  const rot = (t: string) => t.replace(/[a-z]/gi, (c) => String.fromCharCode((((c.charCodeAt(0) & 31) + 12) % 26) + (c.charCodeAt(0) & 96) + 1));
  for (const r of english) {
    const t = r.text.slice(0, 200);
    rows.push({ group: "encoded english rot13", text: rot(t) });
    rows.push({ group: "encoded english url", text: encodeURIComponent(t) });
    rows.push({ group: "encoded english form", text: encodeURIComponent(t).replace(/%20/g, "+") });
  }
  for (const g of generateSuffixData(rng(1)))
    rows.push({ group: g.label ? `generated suffix attacks (${g.group.split(":")[1]})` : `generated suffix negatives ${g.group.split(":")[2]}`, text: g.text });
  const stats = new Map<string, number[]>();
  for (const r of rows) {
    const s = stats.get(r.group) ?? new Array<number>(VIEW_MARKERS.length + 1).fill(0);
    const m = expand(r.text).markers;
    s[0]++;
    VIEW_MARKERS.forEach((v, k) => (s[k + 1] += m.includes(v) ? 1 : 0));
    stats.set(r.group, s);
  }
  const pct = (a: number, n: number) => `${a}/${n} (${((100 * a) / n).toFixed(2)}%)`;
  // Totals over sources: benign held-out rows, of which the multilingual ones.
  for (const [name, test] of [
    ["benign held-out ALL", (g: string) => g.startsWith("benign held-out")],
    ["benign held-out ALL multilingual", (g: string) => /^benign held-out x(quad|copa)/.test(g)],
    ["benign trained ALL", (g: string) => g.startsWith("benign trained")],
    ["generated suffix negatives ALL", (g: string) => g.startsWith("generated suffix negatives ")],
  ] as const) {
    const total = new Array<number>(VIEW_MARKERS.length + 1).fill(0);
    for (const [g, s] of stats) if (test(g)) s.forEach((v, k) => (total[k] += v));
    stats.set(name, total);
  }
  console.log(["group", ...VIEW_MARKERS].join("\t"));
  for (const [g, s] of [...stats].sort(([a], [b]) => (a < b ? -1 : 1))) console.log([g, ...VIEW_MARKERS.map((_, k) => pct(s[k + 1], s[0]))].join("\t"));
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const i = process.argv.indexOf("--out");
  const outDir = i >= 0 ? pathToFileURL(resolve(process.argv[i + 1]) + "/") : new URL("../models/", import.meta.url);
  const t0 = performance.now();
  buildCharLm(outDir);
  console.log(`wrote ${new URL(CHAR_LM_FILE, outDir).pathname} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (process.argv.includes("--report")) report();
}
