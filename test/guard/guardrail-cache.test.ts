// Compiled custom guardrails are cached by id; a cached entry must never
// outlive a change of the guardrail, even one that kept its timestamp (two
// updates within one millisecond on different replicas).
import { describe, expect, it } from "vitest";
import type { StoredGuardrail } from "../../src/custom-guardrails/repository.js";
import { GuardrailCache } from "../../src/guard/guardrail-cache.js";

const at = new Date("2026-11-24T10:00:00.000Z");
const stored = (patterns: string[], labels = ["code"], locations = ["user::content"]): StoredGuardrail => ({
  _id: "custom-guardrail-1",
  org_id: "o",
  name: "codes",
  patterns,
  labels,
  locations,
  created_at: at,
  updated_at: at,
});
const sources = (cache: GuardrailCache, g: StoredGuardrail) => cache.active([g])[0].patterns.map((p) => p.pattern());

describe("guardrail cache", () => {
  it("compiles once for the same guardrail", () => {
    const cache = new GuardrailCache();
    const first = cache.active([stored(["CODE-\\d+"])])[0];
    expect(cache.active([stored(["CODE-\\d+"])])[0]).toBe(first);
  });

  it("a change within the same millisecond is seen: patterns, labels, locations", () => {
    const cache = new GuardrailCache();
    expect(sources(cache, stored(["CODE-\\d+"]))).toEqual(["CODE-\\d+"]);
    expect(sources(cache, stored(["TICKET-\\d+"]))).toEqual(["TICKET-\\d+"]);
    expect(cache.active([stored(["TICKET-\\d+"], ["ticket"])])[0].labels).toEqual(["ticket"]);
    expect(cache.active([stored(["TICKET-\\d+"], ["ticket"], ["tool::content"])])[0].locations).toEqual(["tool::content"]);
  });
});
