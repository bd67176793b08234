// The embedded engine applies flat $set/$inc updates without mingo; the result
// must be exactly what mingo's general updater gives.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { update as mingoUpdate } from "mingo";
import { applyUpdate } from "../../src/storage/embedded/update.js";

const field = fc.constantFrom("a", "b", "c", "n", "when");
const scalar = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.string({ maxLength: 3 }),
  fc.boolean(),
  fc.constant(null),
  fc.date({ min: new Date(0), max: new Date(2 ** 40), noInvalidDate: true }),
);

describe("flat update fast path", () => {
  it("matches mingo for $set of scalars and $inc of numbers", () => {
    fc.assert(
      fc.property(
        fc.dictionary(field, fc.oneof(fc.integer({ min: -5, max: 5 }), scalar), { maxKeys: 4 }),
        fc.dictionary(field, scalar, { maxKeys: 3 }),
        fc.dictionary(field, fc.integer({ min: -3, max: 3 }), { maxKeys: 3 }),
        (base, set, inc) => {
          for (const k of Object.keys(inc)) {
            delete set[k];
            if (base[k] !== undefined && typeof base[k] !== "number") delete inc[k];
          }
          const update: Record<string, unknown> = {};
          if (Object.keys(set).length) update.$set = set;
          if (Object.keys(inc).length) update.$inc = inc;
          if (Object.keys(update).length === 0) return;
          const doc = { _id: "x", ...base };
          const fast = applyUpdate(doc, update);
          const slow = structuredClone(doc);
          const changed = mingoUpdate(slow, update as never, undefined, undefined, { cloneMode: "deep" });
          expect(fast.doc).toEqual(slow);
          expect(fast.modified).toBe(changed.length > 0);
          expect(doc).toEqual({ _id: "x", ...base }); // the stored document is untouched
        },
      ),
      { numRuns: 500, seed: 7 },
    );
  });
});
