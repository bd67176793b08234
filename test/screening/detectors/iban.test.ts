import { describe, expect, it } from "vitest";
import { detectIban } from "../../../src/screening/detectors/pii/iban.js";
import { covered, coveredAtLeast, expectNothing } from "./helpers.js";

describe("pii/iban_code", () => {
  it("finds electronic and grouped IBANs at l1", () => {
    const text = "IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX; also GB82WEST12345698765432.";
    const d = detectIban(text);
    expect(covered(text, d)).toEqual(["DE89 3704 0044 0532 0130 00", "GB82WEST12345698765432"]);
    expect(d.spans.map((s) => s.labels)).toEqual([["DE"], ["GB"]]);
    expect(d.level).toBe("l1_confident");
  });

  it("accepts lower case", () => {
    const text = "send to fr14 2004 1010 0505 0001 3m02 606 please";
    expect(covered(text, detectIban(text))).toEqual(["fr14 2004 1010 0505 0001 3m02 606"]);
  });

  it("reports a wrong checksum only at l5", () => {
    const text = "DE89370400440532013001";
    const d = detectIban(text);
    expect(d.level).toBe("l5_unlikely");
    expect(coveredAtLeast(text, d, "l4_less_likely")).toEqual([]);
  });

  it("ignores wrong lengths, unknown countries and words", () => {
    expectNothing(detectIban("DE89 3704 0044 0532 0130 is short; XX12 3456 7890 1234 5678 is no country"));
    expectNothing(detectIban("HEADER12345678901234 and Version2024Build"));
  });

  it("keeps UTF-16 offsets past emoji", () => {
    const text = "🏦🏦 NL91ABNA0417164300 🏦";
    expect(covered(text, detectIban(text))).toEqual(["NL91ABNA0417164300"]);
  });
});
