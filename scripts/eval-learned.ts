// npm run eval:learned — the learned detectors' figures on the test split
// (issue 6, item 7), computed from the shipped model files through the
// detectors' own code: precision, recall, F1 and FPR at the default threshold,
// TPR at 1% FPR, per-level precision, CRUD accuracy, and whether the targets
// are met. Needs ../shared/corpora (or PARAPET_CORPORA) to rebuild the split.
import { loadModels } from "../src/screening/detectors/learned/index.js";
import { evaluate, formatEvaluation } from "../src/screening/detectors/learned/training/evaluate.js";
import { CATEGORIES } from "../src/screening/detectors/learned/training/generate-moderation.js";

const models = loadModels();
console.log(`models ${models.manifest.version} (loaded in ${models.loadMs.toFixed(0)} ms)`);
const e = evaluate(models);
console.log(formatEvaluation(e));

const targets: [string, number, number][] = [
  ["prompt_attack TPR at FPR <= 1%", e.prompt_attack.tprAt1Fpr, 0.95],
  ...CATEGORIES.map((c): [string, number, number] => [`moderated_content/${c} F1`, e.moderation[c].f1, 0.85]),
  ["tool_risk CRUD accuracy", e.crud.accuracy, 0.95],
];
console.log("\ntargets (issue 6, item 7):");
for (const [name, value, target] of targets) console.log(`  ${value >= target ? "met    " : "NOT MET"} ${name.padEnd(34)} ${value.toFixed(3)} (target ${target})`);
