// A document's size as MongoDB counts it (BSON bytes), computed without the driver so the
// embedded engine can enforce MongoDB's limits (collection.ts, MAX_TIMESERIES_DOCUMENT_BYTES)
// and code building large documents can measure them the same way on both engines.

/** Bytes of `doc` encoded as BSON, as the Node driver encodes JavaScript values. */
export function bsonDocumentBytes(doc: object): number {
  let n = 5; // int32 length + trailing 0
  for (const [key, value] of entriesOf(doc)) n += elementBytes(key, value);
  return n;
}

function entriesOf(value: object): [string, unknown][] {
  return Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
}

function elementBytes(key: string, value: unknown): number {
  // Type byte, the key as a NUL-terminated C string, then the value.
  return 1 + Buffer.byteLength(key) + 1 + valueBytes(value);
}

function valueBytes(value: unknown): number {
  switch (typeof value) {
    case "string":
      return 4 + Buffer.byteLength(value) + 1;
    case "number":
      // The driver writes integers that fit as int32, every other number as a double.
      return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff ? 4 : 8;
    case "bigint":
      return 8;
    case "boolean":
      return 1;
    case "undefined":
      return 0;
    case "object":
      if (value === null) return 0;
      if (value instanceof Date) return 8;
      if (value instanceof Uint8Array) return 4 + 1 + value.byteLength;
      if (value instanceof RegExp) return Buffer.byteLength(value.source) + 1 + value.flags.length + 1;
      return bsonDocumentBytes(value);
    default:
      throw new TypeError(`a ${typeof value} cannot be stored`);
  }
}
