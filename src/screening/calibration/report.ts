// What `parapet calibrate` prints: per label, what a policy threshold at each
// level flags on the data (docs/calibration.md#reading-the-report).
import { thresholds as levelOrder } from "../vocabulary.js";
import type { Calibration, GroupFigures, LabelCalibration } from "./calibrate.js";
import { UNREACHABLE } from "./fpr-budgets.js";

const percent = (x: number) => `${+(x * 100).toPrecision(3)}%`;
const ratio = (x: number | null) => (x === null ? "-" : x.toFixed(3));

export function calibrationReport(c: Calibration): string {
  const b = c.budgets.budgets;
  const out = [
    `${c.model}: ${c.rows} rows, ${c.positives} positive for a label`,
    `budgets (share of negatives flagged): ${levelOrder.map((l) => `${short(l)} ${percent(b[l])}`).join(", ")}; no threshold under ${c.budgets.minScore}`,
  ];
  for (const l of c.labels) out.push("", ...labelReport(l));
  out.push(
    "",
    "Precision, recall and FPR at a level are those of a policy threshold at that level (everything scored at or above it).",
    "The thresholds are chosen on the negatives alone: recall is measured on rows no threshold was chosen on; the FPR is",
    "that of the very negatives the thresholds were chosen on.",
  );
  return out.join("\n");
}

function labelReport(l: LabelCalibration): string[] {
  const o = l.overall;
  const head = `${l.label}: ${o.rows} rows, ${o.positives} positive, ${o.negatives} negative`;
  if (!l.thresholds) return [head, `  ${l.skipped ?? "not calibrated"}`];
  const out = [head, ...table(o, "  ")];
  if (!o.positives) out.push("  no positives: recall and precision are not measured");
  if (l.tight.length) {
    out.push(
      `  ${l.tight.join(", ")}: ${o.negatives} negatives are too few for the budget to allow one false positive; the threshold is just above the highest-scoring negative`,
    );
  }
  if (l.twoValued) {
    out.push("  every score is 0 or 1 (a judge answering without probabilities): the levels only separate its yes from its no,");
    out.push("  and the service gives such a judge's yes a fixed level whatever the file says (docs/judges.md)");
  }
  for (const g of l.locations) {
    out.push(
      `  ${g.group}: ${g.rows} rows, ${g.positives} positive, ${g.negatives} negative, ${g.own ? "thresholds of its own" : "at the default thresholds"}`,
      ...table(g, "    "),
    );
  }
  for (const g of l.languages) {
    out.push(`  language ${g.group}: ${g.rows} rows, ${g.positives} positive, ${g.negatives} negative, at each row's location's thresholds`, ...table(g, "    ", false));
  }
  return out;
}

function table(g: GroupFigures, indent: string, thresholds = true): string[] {
  const header = [...(thresholds ? ["threshold"] : []), "flagged", "precision", "recall", "FPR"];
  const rows = levelOrder.map((level) => {
    const f = g.levels[level];
    if (f.threshold === UNREACHABLE && thresholds) return [level, "never", "-", "-", "-", "-"];
    return [level, ...(thresholds ? [f.threshold.toFixed(4)] : []), String(f.flagged), ratio(f.precision), ratio(f.recall), f.fpr === null ? "-" : f.fpr.toFixed(4)];
  });
  const all = [["level", ...header], ...rows];
  const widths = all[0].map((_, k) => Math.max(...all.map((r) => r[k].length)));
  return all.map((r) => indent + r.map((cell, k) => (k === 0 ? cell.padEnd(widths[k]) : cell.padStart(widths[k]))).join("  "));
}

function short(level: string): string {
  return level.slice(0, 2);
}
