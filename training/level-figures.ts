// Figures of the text heads' levels on the cross-source rounds (level-scores.ts): each test row gets a level
// from thresholds chosen on its round's calibration fold by a level rule, as the shipped models get theirs.
import { calibrateByFpr } from "../src/screening/calibration/fpr-budgets.js";
import type { LevelThresholds } from "../src/screening/detectors/learned/runtime/levels.js";
import { levelOf } from "../src/screening/detectors/learned/runtime/levels.js";
import { levelRank, strongest, type Level, type Threshold } from "../src/screening/vocabulary.js";
import { count, pct, type Counts } from "./cross-source.js";
import { budgetsOf, type LevelRule } from "./level-rules.js";
import { roundLanguages, type RoundScores } from "./level-scores.js";
import type { TextCorpus } from "./recipes.js";
import { calibrationLanguages, type HeadRecipe } from "./text-model.js";

/** Each row's held-out level (undefined: never held out). */
export type Flags = (Level | undefined)[];

/** As text-model.ts: a location's own thresholds need this many calibration negatives there, from two families. */
const MIN_LOCATION_NEGATIVES = 200;

/**
 * How the cross-language head's level joins the n-gram head's (moderation): as shipped (the more confident of the two, on
 * text that is not English), only where the n-gram heads have no evidence for the language, or not at all.
 */
export type CrossLanguageUse = "shipped" | "gaps" | "none";

export function headLevels<Row extends { family: string; fold: number }>(
  corpus: TextCorpus<Row>,
  rounds: RoundScores[],
  recipe: HeadRecipe,
  rule: LevelRule,
  use: CrossLanguageUse = "shipped",
): Flags {
  const out: Flags = new Array<Level | undefined>(corpus.rows.length);
  const budgets = budgetsOf(rule, recipe.name);
  for (const [k, round] of rounds.entries()) {
    const scores = round.scores.get(recipe.name)!;
    const languages = calibrationLanguages(corpus.languages, roundLanguages(corpus, k));
    const thresholdsOn = (rows: number[]) =>
      calibrateByFpr(
        rows.map((i) => scores[i]),
        rows.map((i) => recipe.labels[i]),
        budgets,
        rows.map((i) => languages[i]),
      );
    const all = thresholdsOn(round.calibration);
    const locations: Record<string, LevelThresholds> = {};
    for (const location of recipe.locations?.calibrated ?? []) {
      const rows = round.calibration.filter((i) => recipe.locations!.of[i] === location);
      const negatives = rows.filter((i) => recipe.labels[i] === 0);
      if (negatives.length >= MIN_LOCATION_NEGATIVES && new Set(negatives.map((i) => recipe.locations!.families[i])).size >= 2) locations[location] = thresholdsOn(rows);
    }
    const cross = use === "none" ? undefined : round.cross?.get(recipe.name);
    for (const i of round.test) {
      const own = levelOf(scores[i], locations[recipe.locations?.of[i] ?? ""] ?? all);
      const c = cross?.[i];
      out[i] = c === undefined ? own : use === "shipped" ? strongest([own, c]) : round.evidence.has(i) ? own : c;
    }
  }
  return out;
}

const at = (l: Level | undefined, t: Threshold) => l !== undefined && levelRank[l] <= levelRank[t];
/** l1 precision (and recall), l4 recall and FPR of counted rows. */
export function ends(c: Counts) {
  return {
    l1Precision: c.tp.l1_confident / (c.tp.l1_confident + c.fp.l1_confident),
    l1Recall: c.tp.l1_confident / c.pos,
    l4Precision: c.tp.l4_less_likely / (c.tp.l4_less_likely + c.fp.l4_less_likely),
    l4Recall: c.tp.l4_less_likely / c.pos,
    l4Fpr: c.fp.l4_less_likely / (c.n - c.pos),
  };
}

export function languageOf<Row extends { lang?: string }>(corpus: TextCorpus<Row>, i: number): string {
  return corpus.rows[i].lang ?? corpus.languages[i] ?? "unidentified";
}

/** One head's two ends, pooled, per language (and location), and its worst family at l4. */
export function levelFigures<Row extends { family: string; lang?: string }>(
  name: string,
  corpus: TextCorpus<Row>,
  labels: number[],
  flags: Flags,
  log: (s: string) => void,
  locationOf?: (r: Row) => string,
  minRows = 30,
) {
  const pooled = ends(count(flags, labels, () => true));
  const line = (key: string, t: Counts) => {
    const e = ends(t);
    return `    ${key.padEnd(16)} n=${String(t.n).padStart(6)} pos=${String(t.pos).padStart(5)}  l1 P=${pct(e.l1Precision)} R=${pct(e.l1Recall)}  l4 R=${pct(e.l4Recall)} FPR=${pct(e.l4Fpr)} P=${pct(e.l4Precision)}`;
  };
  log(`  ${name}`);
  log(
    line(
      "all",
      count(flags, labels, () => true),
    ),
  );
  const groups = (keyOf: (i: number) => string) => {
    const keys = [...new Set(corpus.rows.map((_, i) => keyOf(i)))].sort();
    return keys.map((k) => ({ key: k, t: count(flags, labels, (i) => keyOf(i) === k) })).filter((g) => g.t.n >= minRows);
  };
  if (locationOf) for (const g of groups((i) => locationOf(corpus.rows[i]))) log(line(g.key, g.t));
  const byLanguage = groups((i) => languageOf(corpus, i));
  for (const g of byLanguage) log(line(g.key, g.t));
  let worstRecall = { key: "-", value: Infinity };
  let worstFpr = { key: "-", value: -Infinity };
  for (const g of groups((i) => corpus.rows[i].family)) {
    const e = ends(g.t);
    if (g.t.pos >= minRows && e.l4Recall < worstRecall.value) worstRecall = { key: g.key, value: e.l4Recall };
    if (g.t.n - g.t.pos >= minRows && e.l4Fpr > worstFpr.value) worstFpr = { key: g.key, value: e.l4Fpr };
  }
  log(`    worst family at l4: recall ${pct(worstRecall.value)} (${worstRecall.key}), FPR ${pct(worstFpr.value)} (${worstFpr.key})`);
  return { pooled, byLanguage: byLanguage.map((g) => ({ key: g.key, ...ends(g.t), n: g.t.n, pos: g.t.pos })), worstRecall, worstFpr };
}

/** Across the moderation heads: what a policy with every category flags. */
export function moderationUnion<Row extends { family: string; lang?: string; labels: Record<string, number> }>(
  corpus: TextCorpus<Row>,
  flags: Map<string, Flags>,
  log: (s: string) => void,
) {
  const heads = corpus.recipes.map((r) => r.name);
  const heldOut = (i: number) => flags.get(heads[0])![i] !== undefined;
  const harmful = (i: number) => heads.some((h) => corpus.rows[i].labels[h] === 1);
  const any = (i: number, t: Threshold) => heads.some((h) => at(flags.get(h)![i], t));
  const share = (keep: (i: number) => boolean, hit: (i: number) => boolean) => {
    let n = 0;
    let k = 0;
    corpus.rows.forEach((_, i) => {
      if (!heldOut(i) || !keep(i)) return;
      n++;
      if (hit(i)) k++;
    });
    return { n, value: k / n };
  };
  const en = (i: number) => languageOf(corpus, i) === "en";
  const benignAll = share(
    (i) => !harmful(i),
    (i) => any(i, "l4_less_likely"),
  );
  const benignEn = share(
    (i) => !harmful(i) && en(i),
    (i) => any(i, "l4_less_likely"),
  );
  const benignOther = share(
    (i) => !harmful(i) && !en(i),
    (i) => any(i, "l4_less_likely"),
  );
  const harmfulOther = share(
    (i) => harmful(i) && !en(i),
    (i) => any(i, "l4_less_likely"),
  );
  const harmfulOtherL2 = share(
    (i) => harmful(i) && !en(i),
    (i) => any(i, "l2_very_likely"),
  );
  const harmfulEn = share(
    (i) => harmful(i) && en(i),
    (i) => any(i, "l4_less_likely"),
  );
  const hazard = (i: number) => corpus.rows[i].family === "ailuminate" && harmful(i);
  const rightCategory = share(hazard, (i) => heads.some((h) => corpus.rows[i].labels[h] === 1 && at(flags.get(h)![i], "l4_less_likely")));
  const l1Any = share(
    (i) => any(i, "l1_confident"),
    (i) => harmful(i),
  );
  const f1 = (h: string) => {
    const e = ends(count(flags.get(h)!, corpus.recipes.find((r) => r.name === h)!.labels, () => true));
    return (2 * e.l4Precision * e.l4Recall) / (e.l4Precision + e.l4Recall);
  };
  const macro = ["hate", "sexual", "violence", "self_harm"].map(f1);
  const macroF1 = macro.reduce((a, b) => a + b, 0) / macro.length;
  log(
    `  any head at l4: benign flagged ${pct(benignAll.value)} (n=${benignAll.n}; English ${pct(benignEn.value)}, other languages ${pct(benignOther.value)} n=${benignOther.n})`,
  );
  log(
    `    harmful caught: English ${pct(harmfulEn.value)} (n=${harmfulEn.n}), other languages ${pct(harmfulOther.value)} at l4, ${pct(harmfulOtherL2.value)} at l2 (n=${harmfulOther.n})`,
  );
  log(
    `    hazard prompts (AILuminate) with their right category at l4 ${pct(rightCategory.value)} (n=${rightCategory.n}); precision of any head at l1 ${pct(l1Any.value)} (n=${l1Any.n})`,
  );
  breakdowns(corpus, share, harmful, any, log);
  log(`    F1 at l4: ${["hate", "sexual", "violence", "self_harm"].map((h, k) => `${h} ${pct(macro[k])}`).join(", ")}; macro ${pct(macroF1)}`);
  return { benignAll, benignEn, benignOther, harmfulOther, harmfulOtherL2, harmfulEn, rightCategory, l1Any, macroF1 };
}

type Share = (keep: (i: number) => boolean, hit: (i: number) => boolean) => { n: number; value: number };

/** Benign flagged and harmful caught by any head at l4, per language and per family. */
function breakdowns<Row extends { family: string; lang?: string }>(
  corpus: TextCorpus<Row>,
  share: Share,
  harmful: (i: number) => boolean,
  any: (i: number, t: Threshold) => boolean,
  log: (s: string) => void,
) {
  const families = [...new Set(corpus.rows.map((r) => r.family))].sort();
  const perFamily = families
    .map((f) => ({
      f,
      s: share(
        (i) => !harmful(i) && corpus.rows[i].family === f,
        (i) => any(i, "l4_less_likely"),
      ),
    }))
    .filter((x) => x.s.n >= 100)
    .map((x) => `${x.f} ${pct(x.s.value)}`);
  const languages = [...new Set(corpus.rows.map((_, i) => languageOf(corpus, i)))].sort();
  const perLanguage = languages
    .map((l) => ({
      l,
      b: share(
        (i) => !harmful(i) && languageOf(corpus, i) === l,
        (i) => any(i, "l4_less_likely"),
      ),
      h: share(
        (i) => harmful(i) && languageOf(corpus, i) === l,
        (i) => any(i, "l4_less_likely"),
      ),
    }))
    .filter((x) => x.b.n + x.h.n >= 100)
    .map((x) => `${x.l} ${x.b.n >= 30 ? pct(x.b.value) : "  -  "}/${x.h.n >= 30 ? pct(x.h.value) : "  -  "}`);
  log(`    per language (>= 100 rows), benign flagged / harmful caught by any head at l4: ${perLanguage.join(", ")}`);
  log(`    benign flagged by any head at l4, per family (>= 100 rows): ${perFamily.join(", ")}`);
}

/** FPR at l4 per source family with at least 100 negatives. */
export function familyFpr<Row extends { family: string }>(corpus: TextCorpus<Row>, labels: number[], flags: Flags, log: (s: string) => void) {
  const families = [...new Set(corpus.rows.map((r) => r.family))].sort();
  const out = families
    .map((f) => ({ f, t: count(flags, labels, (i) => corpus.rows[i].family === f) }))
    .filter((x) => x.t.n - x.t.pos >= 100)
    .map((x) => `${x.f} ${pct(ends(x.t).l4Fpr)}`);
  log(`    FPR at l4 per family (>= 100 negatives): ${out.join(", ")}`);
}
