// npm run eval:learned — the learned detectors' figures. Headline: the text
// models measured cross-source (level-scores.ts: every corpus row scored by a
// model trained with the shipped recipe on other source families, thresholds
// chosen on yet other families by the shipped level rule), per family and the
// worst one, and both ends of the levels (l1 precision, l4 recall and FPR) per
// head and per language. Then the shipped model files on the hand-written
// probes and the tool detectors' test split, and the issue's targets table.
// Needs the corpora (the directory in PARAPET_CORPORA).
import { loadModels } from "../src/screening/detectors/learned/runtime/models.js";
import { LEARNED_CORPUS_FILES, requireCorpora } from "./corpora.js";
import { languageLines, summarize, type HeadSummary } from "./cross-source.js";
import { evaluate, formatEvaluation } from "./evaluate.js";
import { headLevels, levelFigures, moderationUnion, type Flags } from "./level-figures.js";
import { shippedRule } from "./level-rules.js";
import { roundScores, type RoundScores } from "./level-scores.js";
import { moderationCorpus, promptAttackCorpus } from "./recipes.js";

requireCorpora("eval-learned", LEARNED_CORPUS_FILES);
// `--only prompt_attack` or `--only moderation` runs one family's cross-source rounds (each takes minutes);
// the shipped models' figures and the targets always print, with NaN for what was not run.
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (only !== undefined && only !== "prompt_attack" && only !== "moderation") {
  console.error("eval-learned: --only takes prompt_attack or moderation");
  process.exit(2);
}
const runs = (family: "prompt_attack" | "moderation") => only === undefined || only === family;
const log = (s: string) => console.log(s);
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : " NaN ");

/**
 * TPR at the score where at most 1% of the held-out negatives score at or above it, pooled over the rounds
 * (the "TPR at FPR <= 1%": a property of the scores, whatever the levels), over the rows `keep` holds.
 */
function tprAt1PctFpr(rounds: RoundScores[], head: string, labels: number[], keep: (i: number) => boolean): number {
  const neg: number[] = [];
  const pos: number[] = [];
  for (const r of rounds) {
    const s = r.scores.get(head)!;
    for (const i of r.test) if (keep(i)) (labels[i] ? pos : neg).push(s[i]);
  }
  neg.sort((a, b) => b - a);
  const k = Math.floor(neg.length * 0.01);
  const cut = k < neg.length ? neg[k] : -Infinity;
  return pos.filter((x) => x > cut).length / pos.length;
}

log("Cross-source evaluation (docs/training.md#cross-source-evaluation): each row is scored by a model that never saw its source family,");
log("with level thresholds chosen on a third group of families by the shipped level rule (docs/learned-detectors.md#levels-and-calibration).");
log("Per family: TPR/FPR at l4 (the default policy threshold) and l2. Levels: l1 precision (the precision end) and l4 recall and FPR (the recall end).");
log("");

function promptAttackFigures() {
  log("prompt_attack");
  const pa = promptAttackCorpus();
  const rounds = roundScores(pa, log);
  const recipe = pa.recipes[0];
  const levels = headLevels(pa, rounds, recipe, shippedRule(pa.recipes));
  const lines: string[] = [];
  const summary = summarize("prompt_attack", pa.rows, recipe.labels, levels, lines, {
    minRows: 100,
    groupBy: (r) => `${r.location}${r.lang && r.lang !== "en" ? " non-en" : ""}`,
    groupTitle: "location",
  });
  log(lines.join("\n"));
  log("level ends, per location and language (groups of >= 100 rows):");
  const ends = levelFigures("prompt_attack", pa, recipe.labels, levels, log, (r) => r.location, 100);
  const all = tprAt1PctFpr(rounds, recipe.name, recipe.labels, () => true);
  const documents = tprAt1PctFpr(rounds, recipe.name, recipe.labels, (i) => pa.rows[i].location === "tool::content");
  log(`  TPR at FPR <= 1% (pooled scores): all ${fmt(all)}, tool::content ${fmt(documents)}`);
  return { summary, ends, tpr: { all, documents } };
}

function moderationFigures() {
  log("");
  log("moderated_content");
  const mod = moderationCorpus();
  const rounds = roundScores(mod, log);
  const rule = shippedRule(mod.recipes);
  const flags = new Map<string, Flags>();
  const summaries: HeadSummary[] = [];
  for (const recipe of mod.recipes) {
    const levels = headLevels(mod, rounds, recipe, rule);
    flags.set(recipe.name, levels);
    const out: string[] = [];
    summaries.push(summarize(`moderated_content/${recipe.name}`, mod.rows, recipe.labels, levels, out, { minRows: 30, groupBy: (r) => r.lang, groupTitle: "language" }));
    log(out.join("\n"));
  }
  log("level ends, per language (groups of >= 30 rows):");
  for (const recipe of mod.recipes) levelFigures(`moderated_content/${recipe.name}`, mod, recipe.labels, flags.get(recipe.name)!, log, undefined, 30);
  const union = moderationUnion(mod, flags, log);
  // Per language, the n-gram heads alone, with the cross-language heads only where they have no evidence, and as shipped.
  const variants = (["none", "gaps", "shipped"] as const).map((use) =>
    mod.recipes.map((recipe) => (use === "shipped" ? flags.get(recipe.name)! : headLevels(mod, rounds, recipe, rule, use))),
  );
  languageLines(
    mod.recipes.map((r) => r.labels),
    (i) => `${mod.rows[i].lang ?? "-"}${mod.rows[i].evalOnly ? "*" : ""}`,
    { "n-gram heads": (k, i) => variants[0][k][i], "+ cross-language where no evidence": (k, i) => variants[1][k][i], shipped: (k, i) => variants[2][k][i] },
    log,
  );
  return { summaries, union };
}

const pa = runs("prompt_attack") ? promptAttackFigures() : undefined;
const moderation = runs("moderation") ? moderationFigures() : undefined;

log("");
const models = loadModels();
log(`shipped models ${models.manifest.version} (loaded in ${models.loadMs.toFixed(0)} ms)`);
const e = evaluate(models);
log(formatEvaluation(e));

// The targets table (issue 27), with what this command can compute from the corpora beside each row.
// The issue measures on hidden sets; these are the cross-source figures, which stand in for them.
type Target = [figure: string, value: string, met: boolean | undefined, target: string];
const pair = (a: number, b: number) => `${fmt(a)} / ${fmt(b)}`;
const u = moderation?.union;
const targets: Target[] = [
  [
    "prompt attack TPR at FPR <= 1% (all) / injected tool results and documents",
    pair(pa?.tpr.all ?? NaN, pa?.tpr.documents ?? NaN),
    pa ? pa.tpr.all >= 0.85 && pa.tpr.documents >= 0.6 : undefined,
    ">= 0.85 / >= 0.60",
  ],
  [
    "moderation macro F1 (hate, sexual, violence, self-harm) at l4 [all held-out rows; no set of only real user text here]",
    fmt(u?.macroF1 ?? NaN),
    u ? u.macroF1 >= 0.5 : undefined,
    ">= 0.50",
  ],
  ["right-category recall at l4 on hazard prompts (AILuminate rows)", fmt(u?.rightCategory.value ?? NaN), u ? u.rightCategory.value >= 0.6 : undefined, ">= 0.60"],
  [
    "safe-but-scary prompts flagged at l4 (of 250) / unsafe caught (of 200)",
    "no such set in the corpora (npm run eval:holdout has a proxy)",
    undefined,
    "<= 10 / >= 150",
  ],
  [
    "non-English harmful caught at l4 / non-English benign flagged (moderation heads)",
    pair(u?.harmfulOther.value ?? NaN, u?.benignOther.value ?? NaN),
    u ? u.harmfulOther.value >= 0.5 && u.benignOther.value <= 0.03 : undefined,
    ">= 0.50 / <= 0.03",
  ],
  ["PII macro F1 (8 types) / national IDs of 12 countries caught", "computed by npm run eval:exact", undefined, ">= 0.96 / >= 14 of 15"],
  [
    "hand-written set: attacks / harmful / benign flagged / PII caught / look-alikes flagged",
    "computed by npm run eval:holdout",
    undefined,
    ">= 0.85 / >= 0.70 / <= 0.05 / >= 0.95 / <= 0.05",
  ],
  ["tool_risk CRUD accuracy (test split)", fmt(e.crud.accuracy), e.crud.accuracy >= 0.95, ">= 0.95"],
];
log("\ntargets (issue 27's table; cross-source figures stand in for its hidden sets):");
for (const [name, value, met, target] of targets) {
  const mark = met === undefined ? "n/a    " : met ? "met    " : "NOT MET";
  log(`  ${mark} ${name}\n          ${value} (target ${target})`);
}
