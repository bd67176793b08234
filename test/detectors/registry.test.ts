// The registry covers every exact detector type of the catalog, and together
// they stay fast. Timings are printed, not asserted (CI machines vary).
import { describe, expect, it } from "vitest";
import { detectorTypes } from "../../src/policies/catalog.js";
import { exactDetectorTypes, exactDetectors } from "../../src/screening/detectors/index.js";
import { piiDetectors } from "../../src/screening/detectors/pii.js";

describe("exact detector registry", () => {
  it("maps catalog types to pure functions", () => {
    for (const t of exactDetectorTypes) expect(detectorTypes).toContain(t);
    expect(Object.keys(piiDetectors).sort()).toEqual(detectorTypes.filter((t) => t.startsWith("pii/")).sort());
    expect(exactDetectorTypes).toEqual(
      expect.arrayContaining(["unknown_links", "override_allow", "override_deny", "tool_access_control", "moderated_content/profanity"]),
    );
  });

  it("returns no_level and no spans on empty text", () => {
    for (const t of exactDetectorTypes) {
      if (t === "tool_access_control") continue;
      expect(exactDetectors[t]("", { override_list: ["x"] }), t).toEqual({ level: "no_level", spans: [] });
    }
  });

  it("stays linear on adversarial input (benchmark printed, not asserted)", () => {
    const inputs = [
      "a".repeat(10_000),
      "1".repeat(10_000),
      "1 ".repeat(5_000),
      "a.".repeat(5_000),
      "A".repeat(10_000),
      "Aa ".repeat(3_333),
      "@a".repeat(5_000),
      ":".repeat(10_000),
      "f u ".repeat(2_500),
      "My name is John Smith and I live at 12 Oak Lane, Springfield, IL 62704. Call (415) 555-2671. ".repeat(110).slice(0, 10_000),
    ];
    const cfg = { allowed_domains: ["example.com"], override_list: ["ignore previous instructions"], tool_access_action: "deny" as const, tool_access_list: ["x"] };
    const report: string[] = [];
    for (const text of inputs) {
      for (const d of Object.values(exactDetectors)) d(text, cfg);
      const t0 = performance.now();
      for (let i = 0; i < 5; i++) for (const d of Object.values(exactDetectors)) d(text, cfg);
      report.push(`${JSON.stringify(text.slice(0, 12))}: ${((performance.now() - t0) / 5).toFixed(2)} ms`);
    }
    console.log(`all exact detectors on 10k-character inputs:\n  ${report.join("\n  ")}`);
  });
});
