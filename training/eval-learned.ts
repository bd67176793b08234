// npm run eval:learned — the learned detectors' figures on the test split,
// computed from the shipped model files through the detectors' own code:
// precision, recall, F1 and FPR at the default threshold, TPR at 1% FPR,
// per-level precision, CRUD accuracy, and whether the targets are met. Needs
// the corpora (the directory in PARAPET_CORPORA) to rebuild the split.
import { loadModels } from "../src/screening/detectors/learned/models.js";
import { LEARNED_CORPUS_FILES, requireCorpora } from "./corpora.js";
import { evaluate, formatEvaluation } from "./evaluate.js";
import { CATEGORIES } from "./generators/moderation.js";

requireCorpora("eval-learned", LEARNED_CORPUS_FILES);
const models = loadModels();
console.log(`models ${models.manifest.version} (loaded in ${models.loadMs.toFixed(0)} ms)`);
const e = evaluate(models);
console.log(formatEvaluation(e));

const targets: [string, number, number][] = [
  ["prompt_attack TPR at FPR <= 1%", e.prompt_attack.tprAt1Fpr, 0.95],
  ...CATEGORIES.map((c): [string, number, number] => [`moderated_content/${c} F1`, e.moderation[c].f1, 0.85]),
  ["tool_risk CRUD accuracy", e.crud.accuracy, 0.95],
];
console.log("\ntargets:");
for (const [name, value, target] of targets) console.log(`  ${value >= target ? "met    " : "NOT MET"} ${name.padEnd(34)} ${value.toFixed(3)} (target ${target})`);
