// The detector registry is the one catalogue: the protos' enumerations (read
// from the generated descriptors, as clients see them) must list exactly what
// the registry and the vocabulary declare, and every definition must be
// coherent. The exact detectors also keep their basic contract here.
import { getOption, type DescField } from "@bufbuild/protobuf";
import { field as validateRules } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { describe, expect, it } from "vitest";
import { AnalyticsBucketSchema } from "../../gen/parapet/v1/analytics_pb.js";
import { CustomGuardrailSchema } from "../../gen/parapet/v1/custom_guardrails_pb.js";
import { GetLogsRequestSchema } from "../../gen/parapet/v1/logs_pb.js";
import { DetectorConfigSchema, PolicyRequestSchema } from "../../gen/parapet/v1/policies_pb.js";
import type { Part } from "../../src/screening/parts.js";
import { definitionOf, detectorTypes, detectors, kindOf } from "../../src/screening/registry.js";
import { configFields, familyCounters, levels, locations, logFilters, thresholds } from "../../src/screening/vocabulary.js";

/** The values a field's `string.in` rule allows (on the field, or on its items when repeated). */
function stringIn(field: DescField | undefined): string[] {
  if (!field) throw new Error("no such field");
  const rules = getOption(field, validateRules);
  const type = rules.type.case === "repeated" ? rules.type.value.items?.type : rules.type;
  if (type?.case !== "string") throw new Error(`${field.name} has no string rule`);
  return [...type.value.in];
}

describe("detector registry", () => {
  it("lists exactly the detector types, locations and thresholds the policy proto accepts", () => {
    expect(detectorTypes).toEqual(stringIn(DetectorConfigSchema.field.type));
    expect([...locations]).toEqual(stringIn(DetectorConfigSchema.field.location));
    expect([...thresholds]).toEqual(stringIn(PolicyRequestSchema.field.defaultThreshold));
    expect([...locations]).toEqual(expect.arrayContaining(stringIn(CustomGuardrailSchema.field.locations)));
  });

  it("declares exactly the logs filter values and analytics counters of the protos", () => {
    expect([...logFilters]).toEqual(stringIn(GetLogsRequestSchema.field.detectorTypes));
    const bucketFields = AnalyticsBucketSchema.fields.map((f) => f.name);
    for (const counter of familyCounters) expect(bucketFields).toContain(counter);
    // total_flagged counts requests any detector flagged, decision_flagged the answers that said flagged: true.
    const notFamilies = new Set(["total_flagged", "decision_flagged"]);
    expect(bucketFields.filter((f) => f.endsWith("_flagged") && !notFamilies.has(f)).sort()).toEqual([...familyCounters].sort());
  });

  it("has one coherent definition per type", () => {
    expect(new Set(detectorTypes).size).toBe(detectors.length);
    for (const d of detectors) {
      expect(d.locations.length, d.type).toBeGreaterThan(0);
      for (const l of d.meaningful) expect(d.locations, d.type).toContain(l);
      for (const f of d.requires) expect(d.accepts, d.type).toContain(f);
      for (const f of d.accepts) expect(configFields, d.type).toContain(f);
      if (d.logFamily !== null) expect([...logFilters, "tool_risk"], d.type).toContain(d.logFamily);
      expect(definitionOf(d.type)).toBe(d);
    }
    // Every filter value that names a detector family of this build is some detector's.
    const declared = new Set<string | null>(detectors.map((d) => d.logFamily));
    const notDetectors = ["custom_guardrail", "no_detections", "audio_prompt_attack"];
    for (const filter of logFilters) if (!notDetectors.includes(filter)) expect(declared, filter).toContain(filter);
  });
});

const exact = detectorTypes.filter((t) => kindOf(t) === "exact");

function runExact(type: string, text: string, config: Record<string, unknown>) {
  const part: Part = { location: "user::content", messageId: 0, text, toolName: text };
  return definitionOf(type)!.detect(text, part, { type, location: part.location, ...config }, { parts: [part] });
}

describe("exact detectors", () => {
  it("return no_level and no spans on empty text", () => {
    for (const t of exact) {
      if (t === "tool_access_control") continue;
      expect(runExact(t, "", { override_list: ["x"] }), t).toEqual({ level: "no_level", spans: [] });
    }
  });

  // Their speed on these inputs is measured by linear-time.test.ts (CPU time, every detector) and `npm run bench`.
  it("keep their contract on adversarial input: a known level, spans inside the text, every entity of a long text", () => {
    const prose = "My name is John Smith and I live at 12 Oak Lane, Springfield, IL 62704. Call (415) 555-2671. ";
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
      prose.repeat(110).slice(0, 10_000),
    ];
    const cfg = { allowed_domains: ["example.com"], override_list: ["ignore previous instructions"], tool_access_action: "deny" as const, tool_access_list: ["x"] };
    for (const text of inputs) {
      for (const t of exact) {
        const what = `${t} on ${JSON.stringify(text.slice(0, 12))}`;
        const { level, spans } = runExact(t, text, cfg);
        expect(levels, what).toContain(level);
        if (level === "no_level") expect(spans, what).toEqual([]);
        for (const s of spans) {
          expect(s.start, what).toBeGreaterThanOrEqual(0);
          expect(s.end, what).toBeGreaterThan(s.start);
          expect(s.end, what).toBeLessThanOrEqual(text.length);
        }
      }
    }
    // The long text repeats a name, an address and a phone number: each full repetition's is found.
    const repetitions = Math.floor(10_000 / prose.length);
    for (const t of ["pii/name", "pii/address", "pii/phone_number"]) {
      expect(runExact(t, inputs.at(-1)!, cfg).spans.length, t).toBeGreaterThanOrEqual(repetitions);
    }
  });
});
