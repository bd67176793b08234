// The training and evaluation code lists detector types and families in its
// own order (report rows, model heads); these lists must stay the registry's.
// A detector added to or removed from the registry fails here until the
// evaluation and training lists follow it.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { DetectorDefinition } from "../../src/screening/detector.js";
import { detectorTypes, detectors } from "../../src/screening/registry.js";
import { EXACT_TYPES, PII_TYPES } from "../../training/eval-exact/detectors.js";
import { CATEGORIES } from "../../training/generators/moderation.js";
import { CRUD } from "../../training/generators/tools.js";

const detectorsDir = fileURLToPath(new URL("../../src/screening/detectors/", import.meta.url));

/** The registry's definitions exported by a detector module outside detectors/learned/: the exact detectors. */
async function exactDefinitions(): Promise<DetectorDefinition[]> {
  const files = readdirSync(detectorsDir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && !f.startsWith("learned"));
  const found = new Set<DetectorDefinition>();
  for (const file of files) {
    const exports: Record<string, unknown> = await import(`${detectorsDir}${file}`);
    for (const value of Object.values(exports)) if (detectors.includes(value as DetectorDefinition)) found.add(value as DetectorDefinition);
  }
  return [...found];
}

const sorted = (xs: readonly string[]) => [...xs].sort();

describe("training and evaluation lists of detectors", () => {
  it("eval:exact scores every pii/* detector of the registry", () => {
    expect(sorted(PII_TYPES)).toEqual(sorted(detectorTypes.filter((t) => t.startsWith("pii/"))));
  });

  it("eval:exact measures every exact detector of the registry, and only those", async () => {
    const exact = await exactDefinitions();
    expect(exact.length).toBeGreaterThan(PII_TYPES.length);
    expect(sorted(EXACT_TYPES)).toEqual(sorted(exact.map((d) => d.type)));
  });

  it("the moderation model has a head for each learned moderated_content/* detector", async () => {
    const exact = new Set(await exactDefinitions());
    const learned = detectors.filter((d) => d.type.startsWith("moderated_content/") && !exact.has(d)).map((d) => d.type);
    expect(sorted(CATEGORIES.map((c) => `moderated_content/${c}`))).toEqual(sorted(learned));
  });

  it("the CRUD model has a class for each label detector (what a tool call does)", () => {
    const labels = detectors.filter((d) => d.role === "label").map((d) => d.type);
    expect(sorted(CRUD.map((c) => `tool_risk/${c}`))).toEqual(sorted(labels));
  });
});
