// npm run train — rebuilds every learned model file under models/ from the
// corpora (the directory in PARAPET_CORPORA) plus the project's generated
// data, with a fixed seed, and prints the test-split evaluation. Same inputs,
// same code -> bit-identical models/*.bin and manifest.json.
//
// Options: --out DIR (default models/).
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { crudShares, crudTokens } from "../src/screening/detectors/learned/agent-tools/crud.js";
import { destinationContext, destinationSignature, destinationsIn } from "../src/screening/detectors/learned/agent-tools/destinations.js";
import { actionClasses, deviationSignatures, requestOf } from "../src/screening/detectors/learned/agent-tools/deviation.js";
import { charFeatures, FEATURE_VERSION, tokenFeatures, type SparseVector } from "../src/screening/detectors/learned/runtime/features.js";
import { loadModels } from "../src/screening/detectors/learned/runtime/models.js";
import { PRECISION_FLOORS } from "../src/screening/detectors/learned/runtime/levels.js";
import { thresholds as LEVEL_ORDER, type Level } from "../src/screening/vocabulary.js";
import { dequantize, encodeHeads, quantize, score, type LinearHead } from "../src/screening/detectors/learned/runtime/linear.js";
import type { Manifest, ModelSpec, RuleLevels } from "../src/screening/detectors/learned/runtime/model-store.js";
import { familyHits, payloadMarkers } from "../src/screening/detectors/learned/agent-tools/payload.js";
import { argValues, nameWords } from "../src/screening/detectors/learned/agent-tools/tool-calls.js";
import { calibrate, type CalibrationOptions } from "./calibrate.js";
import { buildCharLm } from "./char-lm.js";
import { LEARNED_CORPUS_FILES, requireCorpora } from "./corpora.js";
import { crudData, destinationData, deviationData, GENERATOR_VERSION, payloadData, SEED, sourceData, trainingCorpusDigests, trainingFingerprint } from "./datasets.js";
import { calibratesOn, trainable } from "./folds.js";
import { moderationCorpus, promptAttackCorpus, type TextCorpus } from "./recipes.js";
import { calibrationLanguages, evidenceLanguages, fitTextHead, TEXT_BITS, type Trained } from "./text-model.js";
import { evaluate, formatEvaluation } from "./evaluate.js";
import { crossLanguageFeatures, fitCrossLanguageHeads } from "./cross-language-model.js";
import { CROSS_LANGUAGE_BITS } from "../src/screening/detectors/learned/runtime/cross-language.js";
import { CRUD } from "./generators/tools.js";
import { trainLogistic, type Example, type TrainOptions } from "./trainer.js";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
if (process.argv.includes("--corpora")) {
  console.error("train: there is no --corpora option; set PARAPET_CORPORA to the corpora directory instead.");
  process.exit(2);
}
requireCorpora("train", LEARNED_CORPUS_FILES);
const outArg = arg("out");
const outDir = outArg ? pathToFileURL(resolve(outArg) + "/") : new URL("../models/", import.meta.url);

const TOOL_BITS = 16;
const log = (...a: unknown[]) => console.log(...a);

function fit(name: string, train: Example[], o: TrainOptions, validate: (h: LinearHead) => { scores: number[]; labels: number[] }, cal: CalibrationOptions): Trained {
  const t0 = performance.now();
  const h = trainLogistic(train, o);
  const { q, scale } = quantize(h.weights);
  const head: LinearHead = { name, weights: dequantize(q, scale), bias: Math.fround(h.bias) };
  const v = validate(head);
  const thresholds = calibrate(v.scores, v.labels, cal);
  log(
    `  ${name}: ${train.length} training examples, ${((performance.now() - t0) / 1000).toFixed(1)} s; thresholds ${LEVEL_ORDER.map((l) => thresholds[l].toFixed(3)).join(" / ")}`,
  );
  return { spec: { name, scale, bias: head.bias, thresholds }, q, head };
}

function writeModel(file: string, bits: number, trained: Trained[]): ModelSpec {
  writeFileSync(new URL(file, outDir), encodeHeads(trained));
  return { file, bits, heads: trained.map((t) => t.spec) };
}

/** Rule signatures -> the most confident level whose precision floor they meet on train+validation. */
function calibrateRules(rows: { signatures: string[]; label: number }[], minSupport = 3): RuleLevels {
  const stats = new Map<string, { n: number; pos: number }>();
  for (const r of rows)
    for (const s of new Set(r.signatures)) {
      const st = stats.get(s) ?? { n: 0, pos: 0 };
      st.n++;
      st.pos += r.label;
      stats.set(s, st);
    }
  const out: RuleLevels = {};
  for (const [s, st] of [...stats].sort()) {
    const p = st.pos / st.n;
    // Too few examples to measure: the most sensitive level, so the default policy still sees it.
    let level: Level = st.n >= minSupport ? "l5_unlikely" : "l4_less_likely";
    if (st.n >= minSupport) for (const l of [...LEVEL_ORDER].reverse()) if (p >= PRECISION_FLOORS[l]) level = l;
    out[s] = level;
  }
  return out;
}

const started = performance.now();
mkdirSync(outDir, { recursive: true });
// First: the text features below read the character model (obfuscation views), and must read the one shipped with them.
buildCharLm(outDir);
log(`training with seed ${SEED}, feature version ${FEATURE_VERSION}`);

// ---- prompt_attack and moderated_content: trained on every source family but
// one fold, whose families choose the thresholds (as in the cross-source
// evaluation, which measures this recipe) ----
function shipped<Row extends { fold: number; evalOnly?: boolean }>(corpus: TextCorpus<Row>): { heads: Trained[]; languages: string[]; crossLanguage?: Trained[] } {
  const held = [corpus.shippedCalibrationFold];
  // Evaluation-only rows (datasets.ts EVAL_ONLY_FAMILIES) neither train the shipped heads nor choose their thresholds.
  const train = corpus.rows.flatMap((r, i) => (trainable(r, held) ? [i] : []));
  const calibration = corpus.rows.flatMap((r, i) => (calibratesOn(r, corpus.shippedCalibrationFold) ? [i] : []));
  const languages = evidenceLanguages(corpus.languages, corpus.recipes, train);
  log(`  languages with evidence: ${languages.join(" ")}`);
  const heads = corpus.recipes.map((recipe) => {
    const t0 = performance.now();
    const t = fitTextHead(recipe, corpus.feats, corpus.lengths, train, calibration, calibrationLanguages(corpus.languages, languages));
    log(
      `  ${recipe.name}: ${train.length} training rows, thresholds on ${calibration.length} held-out rows, ${((performance.now() - t0) / 1000).toFixed(1)} s; thresholds ${LEVEL_ORDER.map((l) => t.spec.thresholds[l].toFixed(3)).join(" / ")}` +
        Object.entries(t.spec.locations ?? {})
          .map(([loc, th]) => `; at ${loc} ${LEVEL_ORDER.map((l) => th[l].toFixed(3)).join(" / ")}`)
          .join(""),
    );
    return t;
  });
  if (!corpus.crossLanguage) return { heads, languages };
  const crossLanguage = fitCrossLanguageHeads(corpus.recipes, crossLanguageFeatures(corpus.feats), corpus.languages, train, calibration);
  for (const t of crossLanguage) log(`  cross-language ${t.spec.name}: thresholds ${LEVEL_ORDER.map((l) => t.spec.thresholds[l].toFixed(3)).join(" / ")}`);
  return { heads, languages, crossLanguage };
}
log("prompt_attack");
const pa = promptAttackCorpus();
const paShipped = shipped(pa);
const [pat] = paShipped.heads;
log("moderated_content");
const mod = moderationCorpus();
const modShipped = shipped(mod);
const modHeads = modShipped.heads;

// ---- CRUD: one-vs-rest heads over tool-call tokens ----
log("tool_risk CRUD");
const cr = crudData();
const crFeat: SparseVector[] = cr.map((e) => tokenFeatures(crudTokens(e.name, e.args, e.definition), TOOL_BITS));
// Heads first, then thresholds on the shares the detector reports (crudShares).
const crudTrain = cr.map((e, i) => ({ e, i })).filter(({ e }) => e.split === "train");
const crudVal = cr.map((e, i) => ({ e, i })).filter(({ e }) => e.split === "validation");
const crudRaw = CRUD.map((c, k) =>
  trainLogistic(
    crudTrain.map(({ e, i }) => ({ x: crFeat[i], y: e.label === c ? 1 : 0 })),
    { dim: 1 << TOOL_BITS, epochs: 10, learningRate: 0.3, l2: 1e-5, seed: SEED + 20 + k, positiveWeight: 1 },
  ),
);
const crudLinear = crudRaw.map((h, k) => {
  const { q, scale } = quantize(h.weights);
  return { q, scale, head: { name: CRUD[k], weights: dequantize(q, scale), bias: Math.fround(h.bias) } };
});
const crudValShares = crudVal.map(({ i }) => crudShares(crudLinear.map((l) => score(l.head, crFeat[i]))));
const crudHeads: Trained[] = CRUD.map((c, k) => {
  const thresholds = calibrate(
    crudValShares.map((s) => s[k]),
    crudVal.map(({ e }) => (e.label === c ? 1 : 0)),
    { maxFprAtL4: 0.02, minSupport: 5, l4: "f1" },
  );
  log(`  ${c}: ${crudTrain.length} training examples; thresholds ${LEVEL_ORDER.map((l) => thresholds[l].toFixed(3)).join(" / ")}`);
  return { spec: { name: c, scale: crudLinear[k].scale, bias: crudLinear[k].head.bias, thresholds }, q: crudLinear[k].q, head: crudLinear[k].head };
});

// ---- payload ----
log("tool_risk/payload");
const pl = payloadData();
const plFeat = pl.map((e) => charFeatures(e.text, TOOL_BITS, payloadMarkers(familyHits(e.text))));
const payloadHead = fit(
  "payload",
  pl
    .map((e, i) => ({ e, i }))
    .filter(({ e }) => e.split === "train")
    .map(({ e, i }) => ({ x: plFeat[i], y: e.label })),
  { dim: 1 << TOOL_BITS, epochs: 12, learningRate: 0.3, l2: 1e-6, seed: SEED + 30 },
  (h) => {
    const v = pl.map((e, i) => ({ e, i })).filter(({ e }) => e.split === "validation");
    return { scores: v.map(({ i }) => score(h, plFeat[i])), labels: v.map(({ e }) => e.label) };
  },
  { maxFprAtL4: 0.01, minSupport: 5, l4: "f1" },
);

// ---- rule levels (train + validation; the test split stays out) ----
log("rule levels");
const notTest = <T extends { split: string }>(rows: T[]) => rows.filter((r) => r.split !== "test");
const destRules = calibrateRules(
  notTest(destinationData()).map((e) => {
    const words = nameWords(e.name);
    const signatures: string[] = [];
    for (const v of argValues(e.args))
      for (const d of destinationsIn(v.value)) if (!d.trusted && !d.internal) signatures.push(destinationSignature(d, destinationContext(v.key, words)));
    return { signatures, label: e.label };
  }),
);
const sourceRows = notTest(sourceData());
const srcRules = calibrateRules(
  sourceRows.map((e) => {
    const signatures: string[] = [];
    const fetching = /fetch|get|browse|read|download|scrape|open|crawl|visit|load|retrieve|search|http|request|url|web|page/.test(e.callName);
    if (fetching)
      for (const v of argValues(e.callArgs)) for (const d of destinationsIn(v.value)) if (d.kind !== "email" && !d.trusted && !d.internal) signatures.push("call_origin");
    for (const d of destinationsIn(e.result))
      if (!d.trusted && !d.internal) signatures.push(/^(from|source|url)\s*:/im.test(e.result) || /"(url|source)"/.test(e.result) ? "declared_origin" : "mentioned");
    return { signatures, label: e.label };
  }),
);
const devRules = calibrateRules(
  notTest(deviationData()).map((e) => ({ signatures: deviationSignatures(actionClasses(e.name, e.args), requestOf([e.user])), label: e.label })),
);
log("  untrusted_destination", JSON.stringify(destRules));
log("  untrusted_source", JSON.stringify(srcRules));
log("  dangerous_deviation", JSON.stringify(devRules));

// ---- write ----
const specs = {
  prompt_attack: { ...writeModel("prompt-attack.bin", TEXT_BITS, [pat]), languages: paShipped.languages },
  moderation: { ...writeModel("moderation.bin", TEXT_BITS, modHeads), languages: modShipped.languages },
  moderation_cross_language: writeModel("moderation-cross-language.bin", CROSS_LANGUAGE_BITS, modShipped.crossLanguage!),
  crud: writeModel("crud.bin", TOOL_BITS, crudHeads),
  payload: writeModel("payload.bin", TOOL_BITS, [payloadHead]),
};
const weightsHash = createHash("sha256");
for (const t of [pat, ...modHeads, ...modShipped.crossLanguage!, ...crudHeads, payloadHead]) weightsHash.update(Buffer.from(t.q.buffer)).update(JSON.stringify(t.spec));
weightsHash.update(JSON.stringify([destRules, srcRules, devRules, paShipped.languages, modShipped.languages]));
const count = (rows: { split: string }[]) => ({
  train: rows.filter((r) => r.split === "train").length,
  validation: rows.filter((r) => r.split === "validation").length,
  test: rows.filter((r) => r.split === "test").length,
});
const foldCount = <Row extends { fold: number; evalOnly?: boolean }>(c: TextCorpus<Row>) => ({
  train: c.rows.filter((r) => trainable(r, [c.shippedCalibrationFold])).length,
  validation: c.rows.filter((r) => calibratesOn(r, c.shippedCalibrationFold)).length,
  test: 0,
});
const manifest: Manifest = {
  version: `learned-1.${FEATURE_VERSION}-${weightsHash.digest("hex").slice(0, 12)}`,
  featureVersion: FEATURE_VERSION,
  seed: SEED,
  trainingData: {
    fingerprint: trainingFingerprint(),
    generatorVersion: GENERATOR_VERSION,
    files: trainingCorpusDigests(),
    precisionFloors: PRECISION_FLOORS,
    // Text models: "validation" is the held-out fold that chose the thresholds; they have no test split (the cross-source evaluation measures them).
    examples: { prompt_attack: foldCount(pa), moderation: foldCount(mod), crud: count(cr), payload: count(pl) },
  },
  models: specs,
  rules: { untrusted_destination: destRules, untrusted_source: srcRules, dangerous_deviation: devRules },
};
writeFileSync(new URL("manifest.json", outDir), JSON.stringify(manifest, null, 2) + "\n");
log(`wrote ${outDir.pathname} (version ${manifest.version}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// ---- evaluate what was written, through the detectors' own code ----
const models = loadModels({ modelsDir: outDir });
const evaluation = evaluate(models);
log(formatEvaluation(evaluation));
