// What other parts of the service derive from the detector definitions must
// agree with them: the stream's split of text models from the rest, sanitize's
// placeholder types, and the console's generated catalogue (which the console
// bundles instead of importing the registry).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { colourOf, detectorCatalogue, familyOf, logFilterOptions } from "../../console/src/catalogue.js";
import { consoleCatalogue, consoleCatalogueFile, consoleCatalogueSource } from "../../scripts/generate-console-catalogue.js";
import { detectorIndexFile, detectorIndexSource } from "../../scripts/generate-detector-index.js";
import { isTextModel } from "../../src/guard/stream/session.js";
import { placeholderType } from "../../src/sanitize/conversation.js";
import { CUSTOM_GUARDRAIL, detectors, detectorTypes, kindOf } from "../../src/screening/registry.js";

describe("definitions", () => {
  it("declare a kind and console defaults where the detector sees the traffic it is built for", () => {
    for (const d of detectors) {
      expect(["exact", "text_model", "tool_call_model"], d.type).toContain(kindOf(d.type));
      expect(d.console.defaults.length, d.type).toBeGreaterThan(0);
      for (const l of d.console.defaults) expect(d.meaningful, d.type).toContain(l);
    }
  });
});

describe("the stream", () => {
  it("treats as text models exactly the definitions of kind text_model", () => {
    for (const t of detectorTypes) expect(isTextModel(t), t).toBe(kindOf(t) === "text_model");
    expect(isTextModel(CUSTOM_GUARDRAIL)).toBe(false);
    expect(detectorTypes.filter(isTextModel).length).toBeGreaterThan(0);
  });
});

describe("sanitize", () => {
  it("types placeholders as the definitions declare, custom guardrails as CUSTOM", () => {
    for (const d of detectors) if (d.placeholder) expect(placeholderType(d.type), d.type).toBe(d.placeholder);
    for (const d of detectors) if (d.type.startsWith("pii/")) expect(d.placeholder, d.type).toMatch(/^[A-Z][A-Z0-9_]{0,30}$/);
    expect(placeholderType(CUSTOM_GUARDRAIL)).toBe("CUSTOM");
  });

  it("keeps the documented placeholder types (docs/sanitize.md#placeholders)", () => {
    const types = [
      "pii/email",
      "pii/phone_number",
      "pii/name",
      "pii/address",
      "pii/credit_card",
      "pii/iban_code",
      "pii/us_social_security_number",
      "pii/ip_address",
      "custom_guardrail",
      "override_deny",
    ];
    expect(types.map(placeholderType)).toEqual(["EMAIL", "PHONE", "NAME", "ADDRESS", "CREDIT_CARD", "IBAN", "SSN", "IP_ADDRESS", "CUSTOM", "CUSTOM"]);
  });
});

describe("the registry's list", () => {
  it("is every detector module's definition in the proto's order (run `npm run generate` and commit the result)", async () => {
    expect(readFileSync(detectorIndexFile, "utf8")).toBe(await detectorIndexSource());
  });
});

describe("the console's catalogue", () => {
  it("is what the registry gives (run `npm run generate` and commit the result)", async () => {
    expect(detectorCatalogue).toEqual(consoleCatalogue());
    expect(readFileSync(consoleCatalogueFile, "utf8")).toBe(await consoleCatalogueSource());
  });

  it("names each logs filter by one family, as the overview and badges name its detectors", () => {
    for (const filter of new Set(detectorCatalogue.map((c) => c.logFamily))) {
      const families = new Set(detectorCatalogue.filter((c) => c.logFamily === filter).map((c) => c.family));
      expect(families.size, `logs filter ${filter}`).toBe(1);
    }
    for (const option of logFilterOptions.filter((o) => o.value !== "no_detections" && o.value !== "custom_guardrail")) {
      const types = detectorCatalogue.filter((c) => c.logFamily === option.value);
      expect(types.length, option.value).toBeGreaterThan(0);
      expect(option.label.startsWith(familyOf(types[0].type)), option.label).toBe(true);
    }
    expect(familyOf("custom_guardrail")).toBe("Custom guardrails");
  });

  it("gives each family its own colour", () => {
    const families = [...new Set(detectorCatalogue.map((c) => c.family))];
    const colours = families.map((f) => colourOf(detectorCatalogue.find((c) => c.family === f)!.type));
    expect(new Set(colours).size).toBe(families.length);
    for (const c of detectorCatalogue) expect(colourOf(c.type), c.type).toBe(colours[families.indexOf(c.family)]);
  });
});
