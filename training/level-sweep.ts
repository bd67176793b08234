// npx tsx training/level-sweep.ts [--only prompt_attack|moderation] [--cache DIR] — compares level rules
// (false-positive budget tables) on the cross-source rounds' scores (level-scores.ts), with the figures
// the choice of levels is made on (docs/learned-detectors.md#levels-and-calibration): per head the precision
// at l1 and the recall and FPR at l4, pooled, per language and for the worst family; across the moderation
// heads the benign text flagged by any head (English and not), the harmful text caught in other languages,
// and the hazard prompts (AILuminate) that get their right category. Needs the corpora; one training pass
// per family (cached in --cache, by default a temporary directory) serves every rule.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Level } from "../src/screening/vocabulary.js";
import { LEARNED_CORPUS_FILES, requireCorpora } from "./corpora.js";
import { LEVEL_RULES } from "./level-rules.js";
import { roundScores, type RoundScores } from "./level-scores.js";
import type { ModerationExample } from "./datasets.js";
import { moderationCorpus, promptAttackCorpus, type TextCorpus } from "./recipes.js";
import { familyFpr, headLevels, levelFigures, moderationUnion, type Flags } from "./level-figures.js";

requireCorpora("level-sweep", LEARNED_CORPUS_FILES);
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const only = arg("--only");
const cacheDir = arg("--cache") ?? join(tmpdir(), "parapet-level-scores");
mkdirSync(cacheDir, { recursive: true });
const log = (s: string) => console.log(s);

interface CachedRound {
  test: number[];
  calibration: number[];
  scores: [string, (number | null)[]][];
  cross?: [string, (Level | null)[]][];
  evidence: number[];
}

function cached<Row extends { fold: number; evalOnly?: boolean }>(name: string, corpus: TextCorpus<Row>): RoundScores[] {
  const file = join(cacheDir, `${name}-${corpus.rows.length}.json`);
  if (existsSync(file)) {
    const raw = JSON.parse(readFileSync(file, "utf8")) as CachedRound[];
    return raw.map((r) => ({
      test: r.test,
      calibration: r.calibration,
      scores: new Map(r.scores.map(([k, v]) => [k, Float64Array.from(v, (x) => x ?? NaN)])),
      cross: r.cross ? new Map(r.cross.map(([k, v]) => [k, v.map((l) => l ?? undefined)])) : undefined,
      evidence: new Set(r.evidence),
    }));
  }
  log(`${name}: training the cross-source rounds`);
  const rounds = roundScores(corpus, log);
  const raw: CachedRound[] = rounds.map((r) => ({
    test: r.test,
    calibration: r.calibration,
    scores: [...r.scores].map(([k, v]) => [k, Array.from(v)]),
    cross: r.cross ? [...r.cross].map(([k, v]) => [k, Array.from(v, (l) => l ?? null)]) : undefined,
    evidence: [...r.evidence],
  }));
  writeFileSync(file, JSON.stringify(raw));
  return rounds;
}

function sweep<Row extends { fold: number; family: string; lang?: string; labels?: Record<string, number> }>(
  name: string,
  corpus: TextCorpus<Row>,
  locationOf?: (r: Row) => string,
) {
  const rounds = cached(name, corpus);
  for (const rule of LEVEL_RULES) {
    log("");
    log(`== ${name}, rule ${rule.name}: ${rule.describe}`);
    const flags = new Map<string, Flags>();
    for (const recipe of corpus.recipes) {
      const f = headLevels(corpus, rounds, recipe, rule);
      flags.set(recipe.name, f);
      levelFigures(recipe.name, corpus, recipe.labels, f, log, locationOf, name === "prompt_attack" ? 100 : 30);
      if (name === "prompt_attack") familyFpr(corpus, recipe.labels, f, log);
    }
    if (corpus.recipes.length > 1) moderationUnion(corpus as unknown as TextCorpus<ModerationExample>, flags, log);
  }
}

if (only === undefined || only === "prompt_attack") sweep("prompt_attack", promptAttackCorpus(), (r) => r.location);
if (only === undefined || only === "moderation") sweep("moderation", moderationCorpus());
