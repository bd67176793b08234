// The labelled data `parapet calibrate` reads (docs/calibration.md#the-data):
// JSON Lines, one row per line, read as a stream with every line bounded, so
// a file of any size costs memory per row, not per file.
import { createReadStream } from "node:fs";
import { locations, type Location } from "../vocabulary.js";

/** A row longer than this is refused: no classifier window or judge context holds it, and it would be held in memory whole. */
const MAX_ROW_BYTES = 1 << 20;

export interface LabelledRow {
  text: string;
  /** A yes/no label (for the one label calibrated), or the names of the labels that apply (none: negative for every label). */
  label: { positive: boolean } | { names: string[] };
  location: Location;
  language?: string;
  /** Keys the row has that calibration does not read (an `id`, a `source`; or a misspelt key, hence reported). */
  ignored: string[];
}

/** A line that is not a row: its 1-based line number and what is wrong, one line. */
export class RowError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const KEYS = ["text", "label", "location", "language"];

/** Parses one line's JSON; throws an Error whose message says what is wrong (the caller adds the line number). */
function parseRow(line: string): LabelledRow {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new Error(`not a JSON object (a row is one JSON object on one line)`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new Error(`not a JSON object (a row is one JSON object on one line)`);
  const o = json as Record<string, unknown>;
  if (typeof o.text !== "string") throw new Error(`"text" must be a string${o.text === undefined ? " (the row has none)" : ""}`);
  if (!o.text.trim()) throw new Error(`"text" is empty`);
  const row: LabelledRow = { text: o.text, label: labelOf(o.label), location: locationOf(o.location), ignored: Object.keys(o).filter((k) => !KEYS.includes(k)) };
  if (o.language !== undefined && o.language !== null) {
    if (typeof o.language !== "string" || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(o.language)) {
      throw new Error(`"language" must be a language tag such as "de" or "pt-BR"; got ${JSON.stringify(o.language)}`);
    }
    row.language = o.language.toLowerCase().replace("_", "-");
  }
  return row;
}

function labelOf(v: unknown): LabelledRow["label"] {
  if (v === 0 || v === false || v === "0" || v === "false") return { positive: false };
  if (v === 1 || v === true || v === "1" || v === "true") return { positive: true };
  if (typeof v === "string" && v.trim()) return { names: [v.trim()] };
  if (Array.isArray(v) && v.every((x) => typeof x === "string" && x.trim())) return { names: [...new Set((v as string[]).map((x) => x.trim()))] };
  const got = v === undefined ? "the row has none" : `got ${JSON.stringify(v)}`;
  throw new Error(`"label" must be 0 or 1, true or false, a label name or a list of label names (${got})`);
}

function locationOf(v: unknown): Location {
  if (v === undefined || v === null) return "user::content";
  if (typeof v !== "string" || !(locations as readonly string[]).includes(v)) {
    throw new Error(`"location" must be one of ${locations.join(", ")}; got ${JSON.stringify(v)}`);
  }
  return v as Location;
}

/**
 * The rows of a JSON Lines file with their line numbers, read as a stream; blank
 * lines are skipped. A line that is not a row is yielded as a RowError (reading
 * goes on, so every bad line can be reported at once); a line longer than
 * MAX_ROW_BYTES is one too, and is skipped without being held.
 */
export async function* readLabelledRows(path: string): AsyncGenerator<{ line: number; row: LabelledRow } | RowError> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for await (const { line, bytes } of lines(path)) {
    if (bytes === undefined) {
      yield new RowError(line, `longer than ${MAX_ROW_BYTES} bytes`);
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      yield new RowError(line, "not UTF-8 text");
      continue;
    }
    if (line === 1 && text.startsWith("\uFEFF")) text = text.slice(1);
    if (!text.trim()) continue;
    try {
      yield { line, row: parseRow(text) };
    } catch (e) {
      yield new RowError(line, (e as Error).message);
    }
  }
}

/** Lines as bytes (without the line break), or `bytes: undefined` for a line over MAX_ROW_BYTES. */
async function* lines(path: string): AsyncGenerator<{ line: number; bytes?: Buffer }> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 1;
  const finish = (): { line: number; bytes?: Buffer } => {
    let bytes: Buffer | undefined = tooLong ? undefined : Buffer.concat(parts, size);
    if (bytes?.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    if (bytes && bytes.length > MAX_ROW_BYTES) bytes = undefined;
    const out = { line: line++, bytes };
    parts = [];
    size = 0;
    tooLong = false;
    return out;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      take(chunk.subarray(start, nl));
      yield finish();
      start = nl + 1;
    }
    take(chunk.subarray(start));
  }
  if (size > 0 || tooLong) yield finish();

  function take(b: Buffer): void {
    if (tooLong || b.length === 0) return;
    // One byte over the bound for the carriage return of a CRLF line.
    if (size + b.length > MAX_ROW_BYTES + 1) {
      tooLong = true;
      parts = [];
      size = 0;
      return;
    }
    parts.push(b);
    size += b.length;
  }
}
