// `parapet calibrate`: thresholds for a model folder or the configured judge, chosen on the user's
// labelled data by false-positive budgets, printed and written to the file the service reads
// (docs/calibration.md). The data is checked whole before anything is scored, and the file is
// written once, at the end, atomically: an interrupted run leaves the previous file as it was.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, modelSettingsOf } from "../config.js";
import { calibrationFileOf, checkData, chooseThresholds, DataErrors, DEFAULT_BUDGETS, labelsToCalibrate, scoreData } from "../screening/calibration/calibrate.js";
import { writeCalibration } from "../screening/calibration/file.js";
import type { FprBudgets } from "../screening/calibration/fpr-budgets.js";
import { calibrationReport } from "../screening/calibration/report.js";
import type { CalibrationScorer } from "../screening/calibration/scorer.js";
import { thresholds as levelOrder } from "../screening/vocabulary.js";
import { InputError, oneOf, UsageError } from "./usage.js";

const slots = ["prompt_attack", "moderation", "pii"] as const;
type Slot = (typeof slots)[number];

const SLOT_SETTING: Record<Slot, string> = { prompt_attack: "PARAPET_PROMPT_ATTACK_MODEL", moderation: "PARAPET_MODERATION_MODEL", pii: "PARAPET_PII_MODEL" };

/** How often a long run says how far it got, on stderr. */
const PROGRESS_MS = 5000;

export async function calibrate(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      model: { type: "string" },
      data: { type: "string" },
      out: { type: "string" },
      "max-fpr": { type: "string" },
      "min-score": { type: "string" },
      label: { type: "string", multiple: true },
      slot: { type: "string" },
      "dry-run": { type: "boolean" },
    },
  });
  if (positionals.length) throw new UsageError(`calibrate: unexpected argument '${positionals[0]}'`);
  if (!values.model) throw new UsageError("calibrate needs --model DIR (a model folder) or --model judge (the judge the PARAPET_JUDGE_* settings name)");
  if (!values.data) throw new UsageError("calibrate needs --data FILE (JSON Lines: text, label, optional location and language)");
  const budgets = budgetsOf(values["max-fpr"], values["min-score"]);
  const judge = values.model === "judge";
  if (judge && values.slot !== undefined) throw new UsageError("--slot is for a model folder; a judge's labels come from its format");
  const chosenSlot = values.slot === undefined ? undefined : oneOf(values.slot, slots, "--slot");
  const data = dataFile(values.data);
  const dir = judge ? undefined : modelFolder(values.model);
  const out = resolve(values.out ?? (dir ? join(dir, "parapet-calibration.json") : "parapet-calibration.json"));

  const summary = await checked(data, () => checkData(data));
  for (const [key, line] of summary.ignored)
    process.stderr.write(`note: ${data}: key "${key}" is not read (first at line ${line}; a row has text, label, location, language)\n`);
  const slot = dir === undefined ? undefined : (chosenSlot ?? slotOf(dir));
  const scorer = dir !== undefined && slot !== undefined ? await modelScorer(dir, slot) : await judgeScorer();
  try {
    const labels = await checked(data, () => Promise.resolve(labelsToCalibrate(summary, scorer, values.label)), true);
    process.stderr.write(`scoring ${summary.rows} rows with ${scorer.name} for ${labels.join(", ")}\n`);
    const started = Date.now();
    let said = started;
    const scored = await scoreData(data, summary, scorer, labels, {
      progress: (done, total) => {
        if (Date.now() - said < PROGRESS_MS || done === total) return;
        said = Date.now();
        process.stderr.write(`scored ${done}/${total} rows (${Math.round((said - started) / 1000)} s)\n`);
      },
    });
    const result = chooseThresholds(scored, scorer.name, budgets);
    process.stdout.write(calibrationReport(result) + "\n");
    const file = calibrationFileOf(result);
    if (!file) throw new Error("no label has the negatives calibration needs: nothing was written");
    if (values["dry-run"]) {
      process.stdout.write(`\n--dry-run: ${out} was not written\n`);
      return 0;
    }
    writeCalibration(out, file);
    process.stdout.write(`\nwrote ${out}\n${howTheServiceReadsIt(out, dir, slot)}\n`);
    return 0;
  } finally {
    await scorer.close();
  }
}

/** `--max-fpr`: the l4 budget (l1-l3 in the default ratios) or all four, as fractions or percentages. */
function budgetsOf(maxFpr: string | undefined, minScore: string | undefined): FprBudgets {
  const out: FprBudgets = { budgets: { ...DEFAULT_BUDGETS.budgets }, minScore: DEFAULT_BUDGETS.minScore };
  if (maxFpr !== undefined) {
    const parts = maxFpr.split(",").map((p) => share(p.trim(), "--max-fpr"));
    if (parts.length === 1) {
      const scale = parts[0] / DEFAULT_BUDGETS.budgets.l4_less_likely;
      for (const l of levelOrder) out.budgets[l] = DEFAULT_BUDGETS.budgets[l] * scale;
    } else if (parts.length === 4) {
      levelOrder.forEach((l, k) => (out.budgets[l] = parts[k]));
      if (parts.some((p, k) => k > 0 && p < parts[k - 1]))
        throw new UsageError("--max-fpr: the four budgets go from l1 to l4 and must not decrease (l1 flags the least)");
    } else throw new UsageError("--max-fpr takes one budget (for l4; l1-l3 get a tenth, a quarter and a half of it) or four, comma-separated (l1,l2,l3,l4)");
  }
  if (minScore !== undefined) {
    const x = Number(minScore);
    if (!minScore.trim() || !(x >= 0 && x <= 1)) throw new UsageError(`--min-score must be a score in [0,1]; got '${minScore}'`);
    out.minScore = x;
  }
  return out;
}

function share(text: string, flag: string): number {
  const pct = text.endsWith("%");
  const x = Number(pct ? text.slice(0, -1) : text) / (pct ? 100 : 1);
  if (!text || !(x >= 0 && x < 1)) throw new UsageError(`${flag}: '${text}' is not a share of negatives in [0,1) (0.01 or 1%)`);
  return x;
}

function modelFolder(path: string): string {
  const dir = resolve(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`--model ${path}: not a folder (a Hugging Face model folder, or 'judge')`);
  return dir;
}

function dataFile(path: string): string {
  if (path === "-") throw new UsageError("--data needs a file: calibration reads it twice (every row is checked before any is scored)");
  let regular = false;
  try {
    regular = statSync(path).isFile();
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (!regular) throw new InputError(`${path} is not a regular file`);
  return path;
}

/** Bad rows are input errors (exit 2) listing the first ones as `file:line: what`; with `allInput`, any other error is one too. */
async function checked<T>(data: string, f: () => Promise<T>, allInput = false): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (allInput && !(e instanceof DataErrors)) throw new InputError((e as Error).message);
    if (!(e instanceof DataErrors)) throw e;
    const lines = e.errors.map((r) => `  ${data}${r.line ? `:${r.line}` : ""}: ${r.message}`);
    const more = e.total > e.errors.length ? [`  ... and ${e.total - e.errors.length} more`] : [];
    throw new InputError([`${data}: ${e.message}`, ...lines, ...more].join("\n"));
  }
}

/**
 * The slot a model folder's config.json suggests, said on stderr (--slot chooses): token
 * classification is PII; several labels that are not attack names, moderation; else prompt_attack.
 */
function slotOf(dir: string): Slot {
  let config: { architectures?: unknown; problem_type?: unknown; id2label?: unknown };
  try {
    config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as typeof config;
  } catch {
    // The model runtime says what is wrong with the folder.
    process.stderr.write(`slot: prompt_attack (no readable config.json to tell; --slot chooses another)\n`);
    return "prompt_attack";
  }
  const architectures = Array.isArray(config.architectures) ? config.architectures.map(String) : [];
  const names = config.id2label && typeof config.id2label === "object" ? Object.values(config.id2label).map(String) : [];
  let slot: Slot = "prompt_attack";
  let why = "a text classifier";
  if (architectures.some((a) => a.endsWith("ForTokenClassification"))) [slot, why] = ["pii", "token classification"];
  else if (names.some((n) => /inject|jailbreak|malicious|attack/i.test(n))) [slot, why] = ["prompt_attack", `labels ${names.join(", ")}`];
  else if (config.problem_type === "multi_label_classification" || names.length > 2) [slot, why] = ["moderation", `labels ${names.join(", ")}`];
  process.stderr.write(`slot: ${slot} (config.json: ${why}; --slot chooses another)\n`);
  return slot;
}

function howTheServiceReadsIt(out: string, dir: string | undefined, slot: Slot | undefined): string {
  if (dir === undefined || slot === undefined) return `the service reads it with PARAPET_JUDGE_CALIBRATION=${out} (at start)`;
  const setting = SLOT_SETTING[slot];
  if (out === join(dir, "parapet-calibration.json")) return `the service reads it with ${setting}=${dir} (at start; the default ${setting}_CALIBRATION)`;
  return `the service reads it with ${setting}=${dir} ${setting}_CALIBRATION=${out} (at start)`;
}

/**
 * The folder runs as the service runs it: with the PARAPET_MODEL_* settings and, when the slot's
 * setting names this same folder, its _LABELS map. The scorers pull in their libraries (the model
 * runtime, the judge client): loaded only here.
 */
async function modelScorer(dir: string, slot: Slot): Promise<CalibrationScorer> {
  // The model settings alone: the rest of the service's configuration is not needed to run a folder.
  const { slots: configured, ...shared } = modelSettingsOf();
  const same = configured.find((s) => s.slot === slot && s.dir !== undefined && resolve(s.dir) === dir);
  const { modelCalibrationScorer } = await import("../screening/models/calibration-scorer.js");
  return modelCalibrationScorer(dir, slot, { ...shared, labels: same?.labels });
}

async function judgeScorer(): Promise<CalibrationScorer> {
  const settings = loadConfig().judge;
  if (!settings) throw new InputError("--model judge: no judge is configured (set PARAPET_JUDGE_URL, PARAPET_JUDGE_MODEL and PARAPET_JUDGE_FORMAT, docs/judges.md)");
  return (await import("../screening/judges/calibration-scorer.js")).judgeCalibrationScorer(settings);
}
