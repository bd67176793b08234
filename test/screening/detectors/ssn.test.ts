import { describe, expect, it } from "vitest";
import { detectSsn, ssnStructurallyValid } from "../../../src/screening/detectors/pii/ssn.js";
import { covered, expectNothing } from "./helpers.js";

describe("pii/us_social_security_number", () => {
  it("applies the SSA structural rules", () => {
    expect(ssnStructurallyValid("536228901")).toBe(true);
    for (const bad of ["000123456", "666123456", "900123456", "999123456", "536008901", "536220000", "078051120", "219099999"]) {
      expect(ssnStructurallyValid(bad), bad).toBe(false);
    }
  });

  it("rates dashed numbers l1 with context, l2 without", () => {
    expect(detectSsn("SSN: 536-22-8901").level).toBe("l1_confident");
    const text = "ref 536-22-8901";
    const d = detectSsn(text);
    expect(d.level).toBe("l2_very_likely");
    expect(covered(text, d)).toEqual(["536-22-8901"]);
  });

  it("rates spaced numbers l1 with context, l3 without", () => {
    expect(detectSsn("my social security number is 536 22 8901").level).toBe("l1_confident");
    expect(detectSsn("code 536 22 8901").level).toBe("l3_likely");
  });

  it("takes nine digits in a row only next to SSN words", () => {
    expect(detectSsn("ssn 536228901").level).toBe("l2_very_likely");
    expectNothing(detectSsn("order 536228901 shipped"));
  });

  it("refuses invalid areas, groups, serials and published numbers", () => {
    expectNothing(detectSsn("SSN 000-12-3456, 666-12-3456, 912-12-3456, 536-00-8901, 536-22-0000, 078-05-1120"));
  });

  it("does not take mixed separators or longer digit runs", () => {
    expectNothing(detectSsn("SSN 536-22 8901 or 1536-22-8901 or 536-22-89012"));
  });

  it("keeps UTF-16 offsets past emoji", () => {
    const text = "🆔 SSN 536-22-8901 🆗";
    expect(covered(text, detectSsn(text))).toEqual(["536-22-8901"]);
  });

  it("leaves product and order codes of the same shape alone unless SSN words say otherwise (look-alikes)", () => {
    for (const text of [
      "SKU 720-44-1982 is out of stock",
      "Part no. 720-44-1982",
      "Item #720-44-1982 x 3",
      "720-44-1982 in stock",
      "Artikel 720-44-1982",
      "Referencia del producto: 655-20-1884",
      "Modèle 655-20-1884",
      // Numbers shaped like a code named earlier are more of those codes.
      "SKUs 720-44-1982, 720-44-1983 and 720-44-1990 are discontinued.",
    ]) {
      expectNothing(detectSsn(text));
    }
    expect(covered("Part no. 720-44-1982 for Jim, SSN 536-22-8901", detectSsn("Part no. 720-44-1982 for Jim, SSN 536-22-8901"))).toEqual(["536-22-8901"]);
    expect(detectSsn("My SSN for the order is 720-44-1982").level).toBe("l1_confident");
    expect(detectSsn("Customer 720-44-1982").level).toBe("l2_very_likely");
  });
});
