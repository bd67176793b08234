import { describe, expect, it } from "vitest";
import { detectCreditCard, issuerOf, luhnValid } from "../../../src/screening/detectors/pii/credit-card.js";
import { covered, coveredAtLeast, expectNothingFlagged } from "./helpers.js";

describe("pii/credit_card", () => {
  it("validates Luhn", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
  });

  it("knows issuer ranges and lengths", () => {
    expect(issuerOf("4111111111111111")).toEqual({ issuer: "visa", lengthOk: true });
    expect(issuerOf("5500000000000004")?.issuer).toBe("mastercard");
    expect(issuerOf("2221000000000009")?.issuer).toBe("mastercard");
    expect(issuerOf("378282246310005")?.issuer).toBe("amex");
    expect(issuerOf("6011111111111117")?.issuer).toBe("discover");
    expect(issuerOf("3530111333300000")?.issuer).toBe("jcb");
    expect(issuerOf("30569309025904")?.issuer).toBe("diners");
    expect(issuerOf("6200000000000005")?.issuer).toBe("unionpay");
    expect(issuerOf("6759649826438453")?.issuer).toBe("maestro");
    expect(issuerOf("37828224631000")).toEqual({ issuer: "amex", lengthOk: false });
  });

  it("finds valid numbers in the usual groupings at l1", () => {
    const text = "Visa 4111 1111 1111 1111, Amex 3782-822463-10005, MC 5500000000000004.";
    const d = detectCreditCard(text);
    expect(covered(text, d)).toEqual(["4111 1111 1111 1111", "3782-822463-10005", "5500000000000004"]);
    expect(d.spans.map((s) => s.labels)).toEqual([["visa"], ["amex"], ["mastercard"]]);
    expect(d.level).toBe("l1_confident");
  });

  it("separates a number from a date or CVV in the same run", () => {
    const text = "card 4111 1111 1111 1111 12 27 cvv 123";
    expect(covered(text, detectCreditCard(text))).toEqual(["4111 1111 1111 1111"]);
  });

  it("does not flag Luhn-invalid numbers, decimals or order ids", () => {
    for (const text of ["card 4111 1111 1111 1112", "pi is 3.14159265358979323846", "your order 1234567812345670 shipped"]) {
      expectNothingFlagged(text, detectCreditCard(text));
    }
  });

  it("keeps unknown-issuer Luhn-valid numbers below l2 even with card words", () => {
    const text = "my card number is 1234567812345670";
    const d = detectCreditCard(text);
    expect(coveredAtLeast(text, d, "l2_very_likely")).toEqual([]);
    expect(coveredAtLeast(text, d, "l3_likely")).toEqual(["1234567812345670"]);
  });

  it("keeps UTF-16 offsets past emoji and CJK", () => {
    const text = "💳 卡号 4111-1111-1111-1111 ✅";
    expect(covered(text, detectCreditCard(text))).toEqual(["4111-1111-1111-1111"]);
  });
});
