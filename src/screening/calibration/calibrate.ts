// `parapet calibrate`'s work, apart from the command line: check the labelled
// data, score it with a model or judge, and choose each label's four thresholds
// by false-positive budgets (fpr-budgets.ts, the built-in models' method), by
// default and per location where the data allows (docs/calibration.md).
import type { LevelThresholds } from "../detectors/learned/runtime/levels.js";
import { locations, thresholds as levelOrder, type Location } from "../vocabulary.js";
import type { CalibrationFile } from "./file.js";
import { calibrateByFpr, UNREACHABLE, type FprBudgets } from "./fpr-budgets.js";
import { readLabelledRows, RowError, type LabelledRow } from "./labelled-data.js";
import type { CalibrationScorer } from "./scorer.js";

/**
 * Share of the data's negatives each level may flag. l4 (the default policy
 * threshold) gets the built-in text models' 1%; l1 stays at 0.1% (their 0.02%
 * allows no false positive below 5,000 negatives, more than most labelled sets
 * hold), l1-l3 in the ratios 1 : 2.5 : 5 : 10. The same floor score as the
 * built-in models.
 */
export const DEFAULT_BUDGETS: FprBudgets = {
  budgets: { l1_confident: 0.001, l2_very_likely: 0.0025, l3_likely: 0.005, l4_less_likely: 0.01 },
  minScore: 0.1,
};

/** Below this many negatives a label is not calibrated: the service keeps its default thresholds for it. */
const MIN_LABEL_NEGATIVES = 100;
/** A location gets thresholds of its own with at least this much data for the label (training's 200 negatives). */
const MIN_LOCATION = { positives: 20, negatives: 200 };
/** A location or language is reported on its own with at least this much data. */
const MIN_REPORTED = { positives: 20, negatives: 20 };
/** Scores kept in memory: rows times labels. */
const MAX_CELLS = 20_000_000;
const MAX_LANGUAGES = 1000;

/** Bad rows, up to the first `shown`; `total` counts them all. */
export class DataErrors extends Error {
  constructor(
    readonly errors: RowError[],
    readonly total: number,
  ) {
    super(`${total} bad row${total === 1 ? "" : "s"}: nothing was scored`);
  }
}

/** What the first reading of the data found (nothing per row is kept). */
export interface DataSummary {
  rows: number;
  /** Label names used, with the first line using each. */
  names: Map<string, number>;
  /** The first line with a yes/no label that says yes. */
  firstYes?: number;
  /** Keys calibration does not read, with the first line having each. */
  ignored: Map<string, number>;
  /** The locations of the rows, with the first line at each. */
  locations: Map<Location, number>;
}

/** Reads the whole file once without scoring: every bad row is found before any is scored. */
export async function checkData(path: string, shown = 10): Promise<DataSummary> {
  const s: DataSummary = { rows: 0, names: new Map(), ignored: new Map(), locations: new Map() };
  const errors: RowError[] = [];
  let bad = 0;
  for await (const r of readLabelledRows(path)) {
    if (r instanceof RowError) {
      if (++bad <= shown) errors.push(r);
      continue;
    }
    s.rows++;
    const { label, ignored } = r.row;
    if ("names" in label) for (const n of label.names) if (!s.names.has(n)) s.names.set(n, r.line);
    if ("positive" in label && label.positive) s.firstYes ??= r.line;
    for (const k of ignored) if (!s.ignored.has(k)) s.ignored.set(k, r.line);
    if (!s.locations.has(r.row.location)) s.locations.set(r.row.location, r.line);
  }
  if (bad) throw new DataErrors(errors, bad);
  if (!s.rows) throw new DataErrors([new RowError(0, "no rows: the file is empty")], 1);
  return s;
}

/** The scorer's label a name in the data means: the label itself, or a detector type ending in it (`moderated_content/hate`). */
function labelNamed(name: string, labels: readonly string[]): string | undefined {
  if (labels.includes(name)) return name;
  const tail = name.slice(name.lastIndexOf("/") + 1);
  return name.includes("/") && labels.includes(tail) ? tail : undefined;
}

/**
 * The labels to calibrate (`chosen`, else all the scorer's), checked against
 * the data: every label name must be one of the scorer's, a yes/no label
 * needs a single label to mean, and every row must be at a location the scorer reads.
 */
export function labelsToCalibrate(summary: DataSummary, scorer: Pick<CalibrationScorer, "name" | "labels" | "locations">, chosen: readonly string[] = []): string[] {
  const known = `${scorer.name}'s labels are ${scorer.labels.join(", ")}`;
  for (const c of chosen) if (!scorer.labels.includes(c)) throw new Error(`--label ${c}: ${known}`);
  const errors: RowError[] = [];
  for (const [name, line] of summary.names) {
    if (!labelNamed(name, scorer.labels)) errors.push(new RowError(line, `label "${name}" is not a label of the model (${known})`));
  }
  const calibrated = chosen.length ? [...new Set(chosen)] : [...scorer.labels];
  if (summary.firstYes !== undefined && calibrated.length > 1) {
    errors.push(
      new RowError(
        summary.firstYes,
        `a yes/no label with several labels to calibrate (${calibrated.join(", ")}): name the labels that apply, or choose one with --label`,
      ),
    );
  }
  const readable = scorer.locations;
  for (const [location, line] of summary.locations) {
    if (readable && !readable.includes(location)) errors.push(new RowError(line, `${scorer.name} does not score ${location} rows (it scores ${readable.join(", ")})`));
  }
  if (errors.length)
    throw new DataErrors(
      errors.sort((a, b) => a.line - b.line),
      errors.length,
    );
  return calibrated;
}

/** The scored data: per calibrated label, each row's score and whether it is positive; each row's location and language. */
export interface ScoredData {
  labels: string[];
  rows: number;
  scores: Float64Array[];
  positive: Uint8Array[];
  location: Uint8Array;
  /** Index into `languages`, or -1. */
  language: Int32Array;
  languages: string[];
}

export interface ScoreOptions {
  /** Rows per call to the scorer. */
  batch?: number;
  progress?: (scored: number, total: number) => void;
}

/** Reads the data a second time and scores it in batches; only the texts of one batch are held at a time. */
export async function scoreData(path: string, summary: DataSummary, scorer: CalibrationScorer, labels: string[], o: ScoreOptions = {}): Promise<ScoredData> {
  if (summary.rows * labels.length > MAX_CELLS) {
    throw new Error(
      `${summary.rows} rows x ${labels.length} labels is more than the ${MAX_CELLS} scores calibration holds: calibrate on a sample, or fewer labels with --label`,
    );
  }
  const n = summary.rows;
  const d: ScoredData = {
    labels,
    rows: n,
    scores: labels.map(() => new Float64Array(n)),
    positive: labels.map(() => new Uint8Array(n)),
    location: new Uint8Array(n),
    language: new Int32Array(n).fill(-1),
    languages: [],
  };
  const columns = labels.map((l) => scorer.labels.indexOf(l));
  const batchSize = Math.max(1, o.batch ?? 32);
  let batch: { line: number; row: LabelledRow }[] = [];
  let done = 0;
  const flush = async () => {
    const scores = await scorer.score(batch.map(({ row }) => ({ text: row.text, location: row.location })));
    if (!Array.isArray(scores) || scores.length !== batch.length) throw new Error(`${scorer.name} returned ${String(scores?.length)} scores for ${batch.length} rows`);
    batch.forEach(({ line, row }, k) => {
      const i = done + k;
      record(d, i, row, scorer.labels);
      columns.forEach((c, j) => {
        const s = scores[k]?.[c];
        if (typeof s !== "number" || !(s >= 0 && s <= 1)) throw new Error(`${scorer.name} scored line ${line} ${String(s)} for ${labels[j]}, not a score in [0,1]`);
        d.scores[j][i] = s;
      });
    });
    done += batch.length;
    batch = [];
    o.progress?.(done, n);
  };
  for await (const r of readLabelledRows(path)) {
    if (r instanceof RowError || done + batch.length >= n) throw new Error(`the data changed while it was read (line ${r.line}): nothing was written`);
    batch.push(r);
    if (batch.length >= batchSize) await flush();
  }
  if (batch.length) await flush();
  if (done !== n) throw new Error(`the data changed while it was read (${done} rows, ${n} before): nothing was written`);
  return d;
}

function record(d: ScoredData, i: number, row: LabelledRow, scorerLabels: readonly string[]): void {
  const label = row.label;
  const yes = "names" in label ? new Set(label.names.map((n) => labelNamed(n, scorerLabels))) : undefined;
  d.labels.forEach((l, j) => (d.positive[j][i] = (yes ? yes.has(l) : "positive" in label && label.positive) ? 1 : 0));
  d.location[i] = locations.indexOf(row.location);
  if (row.language === undefined) return;
  let k = d.languages.indexOf(row.language);
  if (k < 0 && d.languages.length < MAX_LANGUAGES) k = d.languages.push(row.language) - 1;
  d.language[i] = k;
}

/** What a policy threshold at one level flags in a group of rows. */
export interface LevelFigures {
  threshold: number;
  flagged: number;
  /** Null when nothing is flagged, or (recall) there are no positives, or (FPR) no negatives. */
  precision: number | null;
  recall: number | null;
  fpr: number | null;
}

export interface GroupFigures {
  /** "all", a location, or a language. */
  group: string;
  rows: number;
  positives: number;
  negatives: number;
  /** The group's thresholds are its own (a location with enough data). */
  own: boolean;
  levels: Record<(typeof levelOrder)[number], LevelFigures>;
}

export interface LabelCalibration {
  label: string;
  /** Absent when the label has too few negatives to be calibrated (`skipped` says why). */
  thresholds?: { default: LevelThresholds; locations: Partial<Record<Location, LevelThresholds>> };
  skipped?: string;
  overall: GroupFigures;
  locations: GroupFigures[];
  languages: GroupFigures[];
  /** Levels whose budget allows no false positive among this many negatives. */
  tight: string[];
  /** Every score is 0 or 1: a judge that answered without probabilities. */
  twoValued: boolean;
}

export interface Calibration {
  model: string;
  rows: number;
  /** Rows positive for at least one calibrated label. */
  positives: number;
  budgets: FprBudgets;
  labels: LabelCalibration[];
}

/** Chooses every calibrated label's thresholds and measures what each level flags. */
export function chooseThresholds(d: ScoredData, model: string, budgets: FprBudgets = DEFAULT_BUDGETS): Calibration {
  let positives = 0;
  for (let i = 0; i < d.rows; i++) if (d.positive.some((p) => p[i])) positives++;
  return { model, rows: d.rows, positives, budgets, labels: d.labels.map((label, j) => labelCalibration(d, j, label, budgets)) };
}

function labelCalibration(d: ScoredData, j: number, label: string, budgets: FprBudgets): LabelCalibration {
  const scores = d.scores[j];
  const positive = d.positive[j];
  const all = Array.from({ length: d.rows }, (_, i) => i);
  const thresholdsOn = (rows: number[]) =>
    reachable(
      calibrateByFpr(
        rows.map((i) => scores[i]),
        rows.map((i) => positive[i]),
        budgets,
      ),
    );
  const count = (rows: number[]) => rows.reduce((n, i) => n + positive[i], 0);
  const negatives = d.rows - count(all);
  const twoValued = scores.every((x) => x === 0 || x === 1);
  const out: LabelCalibration = { label, overall: figures(d, j, "all", all, false), locations: [], languages: [], tight: [], twoValued };
  const seen = locations.filter((_, k) => d.location.includes(k));
  if (negatives < MIN_LABEL_NEGATIVES) {
    out.skipped = `${negatives} negative${negatives === 1 ? "" : "s"}, fewer than the ${MIN_LABEL_NEGATIVES} a label needs: not calibrated (the service keeps its default thresholds for it)`;
    return out;
  }
  const t = { default: thresholdsOn(all), locations: {} as Partial<Record<Location, LevelThresholds>> };
  out.thresholds = t;
  out.overall = figures(d, j, "all", all, false, t.default);
  out.tight = levelOrder.filter((l) => Math.floor(negatives * budgets.budgets[l]) === 0);
  // With one location in the data the default is that location's.
  for (const location of seen.length > 1 ? seen : []) {
    const k = locations.indexOf(location);
    const rows = all.filter((i) => d.location[i] === k);
    const p = count(rows);
    const own = p >= MIN_LOCATION.positives && rows.length - p >= MIN_LOCATION.negatives;
    if (own) t.locations[location] = thresholdsOn(rows);
    if (p >= MIN_REPORTED.positives && rows.length - p >= MIN_REPORTED.negatives)
      out.locations.push(figures(d, j, location, rows, own, t.locations[location] ?? t.default));
  }
  for (const [k, language] of [...d.languages.entries()].sort((a, b) => a[1].localeCompare(b[1]))) {
    const rows = all.filter((i) => d.language[i] === k);
    const p = count(rows);
    if (p >= MIN_REPORTED.positives && rows.length - p >= MIN_REPORTED.negatives) out.languages.push(figures(d, j, language, rows, false, undefined, t));
  }
  return out;
}

/**
 * Negatives scoring 1 over a level's budget put its threshold just above 1: no score reaches it, which
 * the file says with UNREACHABLE (a judge without probabilities scores 0 or 1, a saturated model 1).
 */
function reachable(t: LevelThresholds): LevelThresholds {
  for (const level of levelOrder) if (t[level] > 1) t[level] = UNREACHABLE;
  return t;
}

/** Figures of `rows` at the given thresholds; without them, at each row's own location's thresholds, or none (all unreachable). */
function figures(d: ScoredData, j: number, group: string, rows: number[], own: boolean, t?: LevelThresholds, byLocation?: LabelCalibration["thresholds"]): GroupFigures {
  const none = { l1_confident: UNREACHABLE, l2_very_likely: UNREACHABLE, l3_likely: UNREACHABLE, l4_less_likely: UNREACHABLE };
  const thresholdOf = (i: number): LevelThresholds => t ?? (byLocation ? (byLocation.locations[locations[d.location[i]]] ?? byLocation.default) : none);
  const positives = rows.reduce((n, i) => n + d.positive[j][i], 0);
  const negatives = rows.length - positives;
  const levels = {} as GroupFigures["levels"];
  for (const level of levelOrder) {
    let tp = 0;
    let fp = 0;
    for (const i of rows) {
      if (d.scores[j][i] < thresholdOf(i)[level]) continue;
      if (d.positive[j][i]) tp++;
      else fp++;
    }
    levels[level] = {
      threshold: (t ?? byLocation?.default ?? none)[level],
      flagged: tp + fp,
      precision: tp + fp ? tp / (tp + fp) : null,
      recall: positives ? tp / positives : null,
      fpr: negatives ? fp / negatives : null,
    };
  }
  return { group, rows: rows.length, positives, negatives, own, levels };
}

/** The file the service reads; undefined when no label could be calibrated. */
export function calibrationFileOf(c: Calibration, created = new Date()): CalibrationFile | undefined {
  const thresholds: CalibrationFile["thresholds"] = {};
  for (const l of c.labels) {
    if (!l.thresholds) continue;
    thresholds[l.label] = { default: l.thresholds.default, ...(Object.keys(l.thresholds.locations).length ? { locations: l.thresholds.locations } : {}) };
  }
  if (!Object.keys(thresholds).length) return undefined;
  return { format: "parapet-calibration/1", model: c.model, created: created.toISOString(), data: { rows: c.rows, positives: c.positives }, thresholds };
}
