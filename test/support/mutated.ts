// Malformed bytes from a valid body, for the fuzz tests (test/server/fuzz.test.ts, the hostile run).
import fc from "fast-check";

/** Bytes of a valid body flipped, inserted, cut or truncated: up to `maxEdits` edits. */
export function mutated(base: Uint8Array, maxEdits: number): fc.Arbitrary<Uint8Array> {
  const edit = fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }), kind: fc.constantFrom("flip", "insert", "delete", "truncate") });
  return fc.array(edit, { minLength: 1, maxLength: maxEdits }).map((edits) => {
    let bytes = Array.from(base);
    for (const e of edits) {
      const at = bytes.length ? e.at % bytes.length : 0;
      if (e.kind === "flip") bytes[at] = e.byte;
      else if (e.kind === "insert") bytes.splice(at, 0, e.byte);
      else if (e.kind === "delete") bytes.splice(at, 1);
      else bytes = bytes.slice(0, at);
    }
    return Uint8Array.from(bytes);
  });
}
