// npm run eval:learned — the learned detectors' figures. Headline: the text
// models measured cross-source (cross-source.ts: every corpus row scored by a
// model trained with the shipped recipe on other source families, thresholds
// chosen on yet other families), per family and the worst one. Then the
// shipped model files on the hand-written probes and the tool detectors'
// test split. Needs the corpora (the directory in PARAPET_CORPORA).
import { loadModels } from "../src/screening/detectors/learned/runtime/models.js";
import { LEARNED_CORPUS_FILES, requireCorpora } from "./corpora.js";
import { heldOutLevels, summarize, type HeadSummary } from "./cross-source.js";
import { evaluate, formatEvaluation } from "./evaluate.js";
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
const fmt = (x: number) => x.toFixed(3);

log("Cross-source evaluation (docs/training.md#cross-source-evaluation): each row is scored by a model that never saw its source family,");
log("with level thresholds chosen on a third group of families. TPR/FPR at l4 (the default policy threshold) and l2.");
log("");
function promptAttackFigures(): HeadSummary {
  log("prompt_attack");
  const pa = promptAttackCorpus();
  const paLevels = heldOutLevels(pa, log);
  const lines: string[] = [];
  const summary = summarize("prompt_attack", pa.rows, pa.recipes[0].labels, paLevels.get("prompt_attack")!, lines, {
    minRows: 100,
    groupBy: (r) => `${r.location}${r.lang && r.lang !== "en" ? " non-en" : ""}`,
    groupTitle: "location",
  });
  log(lines.join("\n"));
  return summary;
}

function moderationFigures() {
  log("");
  log("moderated_content");
  const mod = moderationCorpus();
  const modLevels = heldOutLevels(mod, log);
  const summaries: HeadSummary[] = [];
  for (const recipe of mod.recipes) {
    const out: string[] = [];
    summaries.push(
      summarize(`moderated_content/${recipe.name}`, mod.rows, recipe.labels, modLevels.get(recipe.name)!, out, {
        minRows: 30,
        groupBy: (r) => r.lang,
        groupTitle: "language",
      }),
    );
    log(out.join("\n"));
  }
  // Across heads: a row counts as flagged when any head flags it (what a policy with every category does).
  const anyHead = (i: number, threshold: "l2_very_likely" | "l4_less_likely") =>
    mod.recipes.some((r) => {
      const l = modLevels.get(r.name)![i];
      return l !== undefined && (threshold === "l4_less_likely" ? l !== "l5_unlikely" && l !== "no_level" : l === "l1_confident" || l === "l2_very_likely");
    });
  const heldOut = mod.rows.map((_, i) => modLevels.get(mod.recipes[0].name)![i] !== undefined);
  const isHarmful = (i: number) => mod.recipes.some((r) => r.labels[i] === 1);
  const share = (keep: (i: number) => boolean, flagged: (i: number) => boolean) => {
    let n = 0;
    let k = 0;
    mod.rows.forEach((_, i) => {
      if (!heldOut[i] || !keep(i)) return;
      n++;
      if (flagged(i)) k++;
    });
    return { n, value: n ? k / n : NaN };
  };
  const nonEnglish = (i: number) => mod.rows[i].lang !== undefined && mod.rows[i].lang !== "en";
  const safeContrasts = (i: number) => ["hatecheck", "medquad", "donotanswer", "bbq"].includes(mod.rows[i].family) && !isHarmful(i);
  const nonEnBenign = share(
    (i) => nonEnglish(i) && !isHarmful(i),
    (i) => anyHead(i, "l4_less_likely"),
  );
  const nonEnHarmful = share(
    (i) => nonEnglish(i) && isHarmful(i),
    (i) => anyHead(i, "l2_very_likely"),
  );
  const contrasts = share(safeContrasts, (i) => anyHead(i, "l2_very_likely"));
  log(
    `any moderation head: non-English benign flagged at l4 ${fmt(nonEnBenign.value)} (n=${nonEnBenign.n}); non-English harmful flagged at l2 ${fmt(nonEnHarmful.value)} (n=${nonEnHarmful.n})`,
  );
  log(`  safe contrasts (HateCheck non-hateful, BBQ, health questions, Do-Not-Answer safe) flagged at l2 ${fmt(contrasts.value)} (n=${contrasts.n})`);
  return { summaries, nonEnBenign, nonEnHarmful, contrasts };
}

const paSummary = runs("prompt_attack") ? promptAttackFigures() : undefined;
const moderation = runs("moderation") ? moderationFigures() : undefined;
const nan = { value: NaN };

log("");
const models = loadModels();
log(`shipped models ${models.manifest.version} (loaded in ${models.loadMs.toFixed(0)} ms)`);
const e = evaluate(models);
log(formatEvaluation(e));

const targets: [string, number, (v: number) => boolean, string][] = [
  ["prompt_attack worst-family TPR at l4 (FPR <= 1% chosen held-out)", paSummary?.worstRecall?.value ?? NaN, (v) => v >= 0.9, ">= 0.90"],
  ["prompt_attack worst-family FPR at l4", paSummary?.worstFpr?.value ?? NaN, (v) => v <= 0.01, "<= 0.01"],
  ...(moderation?.summaries ?? []).map((m): [string, number, (v: number) => boolean, string] => [`${m.name} F1 at l4`, m.f1, (v) => v >= 0.75, ">= 0.75"]),
  ["safe contrasts flagged at l2", (moderation?.contrasts ?? nan).value, (v) => v <= 0.03, "<= 0.03"],
  ["non-English benign flagged at l4 (moderation)", (moderation?.nonEnBenign ?? nan).value, (v) => v <= 0.05, "<= 0.05"],
  ["non-English harmful recall at l2 (moderation)", (moderation?.nonEnHarmful ?? nan).value, (v) => v >= 0.6, ">= 0.60"],
  ["tool_risk CRUD accuracy", e.crud.accuracy, (v) => v >= 0.95, ">= 0.95"],
];
log("\ntargets (cross-source):");
for (const [name, value, met, target] of targets) log(`  ${met(value) ? "met    " : "NOT MET"} ${name.padEnd(62)} ${fmt(value)} (target ${target})`);
