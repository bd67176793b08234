import { describe, expect, it } from "vitest";
import { detectPhoneNumber } from "../../src/screening/detectors/pii/phone.js";
import { covered, coveredAtLeast, expectNothingFlagged } from "./helpers.js";

describe("pii/phone_number", () => {
  it("finds valid US and international numbers with extensions", () => {
    const text = "Call me at (415) 555-2671 or +44 20 7946 0958 x12, office 703.301.3354";
    const d = detectPhoneNumber(text);
    expect(covered(text, d)).toEqual(["(415) 555-2671", "+44 20 7946 0958 x12", "703.301.3354"]);
    expect(d.spans.map((s) => s.labels)).toEqual([["US"], ["GB"], ["US"]]);
    expect(d.spans[0].level).toBe("l1_confident");
  });

  it("rates possible-but-invalid numbers l3/l4", () => {
    const text = "+17453189368";
    const d = detectPhoneNumber(text);
    expect(coveredAtLeast(text, d, "l2_very_likely")).toEqual([]);
    expect(covered(text, d)).toEqual(["+17453189368"]);
  });

  it("keeps bare digit strings without phone words below the default threshold", () => {
    const text = "order 4155552671 shipped";
    expectNothingFlagged(text, detectPhoneNumber(text));
    expect(coveredAtLeast("call 4155552671", detectPhoneNumber("call 4155552671"), "l2_very_likely")).toEqual(["4155552671"]);
  });

  it("leaves cards, IPs, SSNs, dates and IBANs to their detectors", () => {
    const text = "card 4111 1111 1111 1111, ip 192.168.100.200, ssn 536-22-8901, on 2024-01-15 and 12/25/2023, DE89 3704 0044 0532 0130 00";
    expectNothingFlagged(text, detectPhoneNumber(text));
  });

  it("does not join numbers on different lines", () => {
    const text = "ZIP 94103\n(415) 555-2671";
    expect(covered(text, detectPhoneNumber(text))).toEqual(["(415) 555-2671"]);
  });

  it("keeps UTF-16 offsets past emoji and Japanese", () => {
    const text = "📞 電話: +81 3-1234-5678 です";
    expect(covered(text, detectPhoneNumber(text))).toEqual(["+81 3-1234-5678"]);
  });
});
