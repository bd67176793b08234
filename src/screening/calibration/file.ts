// The calibration file `parapet calibrate` writes and the service reads for a
// configured model or judge (docs/calibration.md#the-file): per detector label,
// the lowest score at which each confidence level is given, by default and per
// location. Reading checks every value so that a hand-edited or truncated file
// stops the service with one line naming what is wrong, instead of screening
// with thresholds nobody chose.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { LevelThresholds } from "../detectors/learned/runtime/levels.js";
import { locations, thresholds as levelOrder, type Location } from "../vocabulary.js";
import { UNREACHABLE } from "./fpr-budgets.js";

const FORMAT = "parapet-calibration/1";

/** One detector label's thresholds: the default, and where a location's data allowed its own. */
interface LabelThresholds {
  default: LevelThresholds;
  locations?: Partial<Record<Location, LevelThresholds>>;
}

export interface CalibrationFile {
  format: typeof FORMAT;
  /** The model folder's name, or `judge:<model>`. */
  model: string;
  /** ISO time the file was written. */
  created: string;
  /** The labelled data the thresholds were chosen on. */
  data: { rows: number; positives: number };
  /** Per detector label (`prompt_attack`, `hate`, `name`, ...). */
  thresholds: Record<string, LabelThresholds>;
}

/** Reads and checks a calibration file; throws an Error with one line naming the file and the fault. */
export function readCalibration(path: string): CalibrationFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new Error(`calibration file ${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`calibration file ${path}: not JSON (${oneLine(e)})`);
  }
  try {
    return checked(json);
  } catch (e) {
    throw new Error(`calibration file ${path}: ${oneLine(e)}`);
  }
}

/** The thresholds for a label at a location: the location's own, else the label's default, else undefined. */
export function thresholdsFor(c: CalibrationFile, label: string, location: Location): LevelThresholds | undefined {
  const entry = Object.hasOwn(c.thresholds, label) ? c.thresholds[label] : undefined;
  return entry?.locations?.[location] ?? entry?.default;
}

/**
 * Writes the file atomically (a temporary file in the same folder, then a
 * rename), so a service reading it never sees half a file. The content is
 * checked first: what is written always reads back.
 */
export function writeCalibration(path: string, c: CalibrationFile): void {
  checked(JSON.parse(JSON.stringify(c)));
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(temp, JSON.stringify(c, null, 2) + "\n");
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

function checked(json: unknown): CalibrationFile {
  const top = object(json, "the file");
  if (top.format !== FORMAT) throw new Error(`format is ${JSON.stringify(top.format)}, expected "${FORMAT}"`);
  onlyKeys(top, ["format", "model", "created", "data", "thresholds"], "the file");
  if (typeof top.model !== "string" || !top.model) throw new Error(`model must be a non-empty string`);
  if (typeof top.created !== "string" || Number.isNaN(Date.parse(top.created))) throw new Error(`created must be an ISO time`);
  const data = object(top.data, "data");
  onlyKeys(data, ["rows", "positives"], "data");
  for (const k of ["rows", "positives"] as const) {
    if (!Number.isInteger(data[k]) || (data[k] as number) < 0) throw new Error(`data.${k} must be a non-negative integer`);
  }
  const labels = object(top.thresholds, "thresholds");
  if (!Object.keys(labels).length) throw new Error(`thresholds names no detector label`);
  for (const [label, value] of Object.entries(labels)) {
    const at = `thresholds.${label}`;
    const entry = object(value, at);
    onlyKeys(entry, ["default", "locations"], at);
    levelThresholds(entry.default, `${at}.default`);
    if (entry.locations === undefined) continue;
    const byLocation = object(entry.locations, `${at}.locations`);
    for (const [location, t] of Object.entries(byLocation)) {
      if (!(locations as readonly string[]).includes(location)) {
        throw new Error(`${at}.locations has unknown location "${location}" (known: ${locations.join(", ")})`);
      }
      levelThresholds(t, `${at}.locations.${location}`);
    }
  }
  return json as CalibrationFile;
}

function levelThresholds(value: unknown, at: string): void {
  const t = object(value, at);
  onlyKeys(t, levelOrder, at);
  for (const level of levelOrder) {
    const x = t[level];
    if (typeof x !== "number" || !((x >= 0 && x <= 1) || x === UNREACHABLE)) {
      throw new Error(`${at}.${level} is ${JSON.stringify(x)}: a threshold is a score in [0,1], or ${UNREACHABLE} for a level never reached`);
    }
  }
  // A more confident level flags a subset of what a less confident one flags.
  for (let k = 1; k < levelOrder.length; k++) {
    const above = levelOrder[k - 1];
    const level = levelOrder[k];
    if ((t[above] as number) < (t[level] as number)) {
      throw new Error(`${at}.${above} (${String(t[above])}) is below ${level} (${String(t[level])}): thresholds must not increase from l1 to l4`);
    }
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${at} must be a JSON object`);
  return value as Record<string, unknown>;
}

function onlyKeys(o: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw new Error(`${at} has unknown key "${k}" (expected ${allowed.join(", ")})`);
  }
  for (const k of allowed) if (k !== "locations" && !(k in o)) throw new Error(`${at} lacks "${k}"`);
}

function oneLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0];
}
