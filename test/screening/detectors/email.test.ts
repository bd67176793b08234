import { describe, expect, it } from "vitest";
import { detectEmail } from "../../../src/screening/detectors/pii/email.js";
import { covered, expectNothing } from "./helpers.js";

describe("pii/email", () => {
  it("finds ordinary addresses at l1 with the domain as label", () => {
    const text = "Write to jane.doe+billing@mail.example.co.uk or ops@example.com.";
    const d = detectEmail(text);
    expect(d.level).toBe("l1_confident");
    expect(covered(text, d)).toEqual(["jane.doe+billing@mail.example.co.uk", "ops@example.com"]);
    expect(d.spans[0].labels).toEqual(["mail.example.co.uk"]);
  });

  it("accepts internationalized domains and local parts", () => {
    const text = "Kontakt: josé@bücher.de und 用户@例子.中国";
    const d = detectEmail(text);
    expect(covered(text, d)).toEqual(["josé@bücher.de", "用户@例子.中国"]);
    expect(d.spans.every((s) => s.level === "l1_confident")).toBe(true);
  });

  it("keeps exact UTF-16 offsets after emoji and other scripts", () => {
    const text = "🎉🎉 Привет! mail me: me@example.org 👍";
    const d = detectEmail(text);
    expect(covered(text, d)).toEqual(["me@example.org"]);
  });

  it("ignores mentions, hosts without a public suffix and decorations", () => {
    expectNothing(detectEmail("ping @alice and @bob about it"));
    expectNothing(detectEmail("ssh root@localhost then user@server"));
    expectNothing(detectEmail("the @ sign alone, or a@ and @b"));
  });

  it("reports unknown suffixes only at l5", () => {
    const d = detectEmail("internal: build@ci.corp.internal");
    expect(d.level).toBe("l5_unlikely");
  });

  it("trims sentence punctuation and quotes", () => {
    const text = 'Is it "x@y.com"? Or (a.b@c.io).';
    expect(covered(text, detectEmail(text))).toEqual(["x@y.com", "a.b@c.io"]);
  });
});
