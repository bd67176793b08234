// How `parapet export` writes stored values, so that import gives back every one of them
// (docs/storage.md#moving-from-the-embedded-engine-to-mongodb).
//
// Extended JSON almost does it: canonical EJSON keeps dates and the doubles JSON cannot
// write (NaN, ±Infinity, -0). But EJSON reads any object whose keys look like its type
// wrappers (`$date`, `$oid`, `$regex`, `{$ref, $id}`, ...) as that type, and user data can
// hold such keys (project metadata stored before they were refused). So:
//
//   string, boolean, null, finite number (not -0)  as JSON
//   Date                                          {"$date": {"$numberLong": "<ms>"}}      (canonical EJSON)
//   NaN, Infinity, -Infinity, -0                  {"$numberDouble": "NaN" | "Infinity" | "-Infinity" | "-0.0"}
//   undefined                                     {"$undefined": true}
//   array                                         array of encoded values
//   object without a key starting with `$`        object of encoded values
//   object with a key starting with `$`           {"$entries": [[key, encoded value], ...]}
//
// Every encoded object whose keys start with `$` is one of the wrappers above, since user
// objects with such keys are always wrapped in `$entries`; decoding is therefore unambiguous.
// Numbers stay JavaScript numbers, as both engines hand them out.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function encodeValue(value: unknown, path = "$"): Json {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Number.isFinite(value) && !Object.is(value, -0)) return value;
      return { $numberDouble: Object.is(value, -0) ? "-0.0" : String(value) };
    case "undefined":
      return { $undefined: true };
    case "object": {
      if (value === null) return null;
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) throw new TypeError(`${path}: an invalid Date cannot be exported`);
        return { $date: { $numberLong: String(value.getTime()) } };
      }
      if (Array.isArray(value)) return Array.from(value, (v, i) => encodeValue(v, `${path}[${i}]`));
      if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
        throw new TypeError(`${path}: a ${value.constructor?.name ?? "non-plain object"} cannot be exported`);
      }
      const entries = Object.entries(value);
      if (entries.some(([k]) => k.startsWith("$"))) return { $entries: entries.map(([k, v]) => [k, encodeValue(v, `${path}.${k}`)]) };
      const out: { [key: string]: Json } = {};
      for (const [k, v] of entries) define(out, k, encodeValue(v, `${path}.${k}`));
      return out;
    }
    default:
      throw new TypeError(`${path}: a ${typeof value} cannot be exported`);
  }
}

export function decodeValue(json: unknown, path = "$"): unknown {
  if (json === null || typeof json !== "object") return json;
  if (Array.isArray(json)) return json.map((v, i) => decodeValue(v, `${path}[${i}]`));
  const obj = json as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (!keys.some((k) => k.startsWith("$"))) {
    const out: Record<string, unknown> = {};
    for (const k of keys) define(out, k, decodeValue(obj[k], `${path}.${k}`));
    return out;
  }
  if (keys.length === 1 && Array.isArray(obj.$entries)) {
    const out: Record<string, unknown> = {};
    for (const entry of obj.$entries as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== "string") throw new TypeError(`${path}: malformed $entries`);
      define(out, entry[0], decodeValue(entry[1], `${path}.${entry[0]}`));
    }
    return out;
  }
  if (keys.length === 1 && obj.$undefined === true) return undefined;
  if (keys.length === 1 && typeof obj.$numberDouble === "string") return Number(obj.$numberDouble === "-0.0" ? "-0" : obj.$numberDouble);
  const ms = (obj.$date as { $numberLong?: unknown } | undefined)?.$numberLong;
  if (keys.length === 1 && typeof ms === "string" && /^-?\d+$/.test(ms)) return new Date(Number(ms));
  throw new TypeError(`${path}: unknown wrapper ${JSON.stringify(keys)}`);
}

/** Own data property even for `__proto__`, which plain assignment would turn into a prototype change. */
function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
