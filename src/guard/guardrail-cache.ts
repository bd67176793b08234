// Compiled custom guardrails for the screening engine, kept between requests.
// Its own module so the screener and the worker threads use it without
// loading policy resolution.
import { LRUCache } from "lru-cache";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import type { ActiveGuardrail } from "../screening/engine.js";
import { builtinGuardrail } from "../screening/detectors/pii/national-ids/pack.js";
import { compilePattern } from "../screening/patterns.js";

const sameStrings = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Compiled guardrails, cached by id so patterns compile once. A hit is checked against the
 * guardrail's content, not its `updated_at`: two updates within one millisecond on different
 * replicas share a timestamp.
 */
export class GuardrailCache {
  private readonly cache = new LRUCache<string, { source: StoredGuardrail; active: ActiveGuardrail }>({ max: 5000 });

  active(guardrails: StoredGuardrail[]): ActiveGuardrail[] {
    return guardrails.map((g) => {
      const builtin = builtinGuardrail(g._id);
      if (builtin) return { id: builtin.id, patterns: [], labels: builtin.labels, locations: builtin.locations, detect: builtin.detect };
      const hit = this.cache.get(g._id);
      if (hit && sameStrings(hit.source.patterns, g.patterns) && sameStrings(hit.source.labels, g.labels) && sameStrings(hit.source.locations, g.locations)) {
        return hit.active;
      }
      const patterns = g.patterns.map(compilePattern).flatMap((c) => (c.ok ? [c.pattern] : []));
      const active: ActiveGuardrail = { id: g._id, patterns, labels: g.labels, locations: g.locations };
      this.cache.set(g._id, { source: g, active });
      return active;
    });
  }
}
