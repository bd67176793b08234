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

  it("ends an address where Chinese, Japanese or Korean text written without a space meets it", () => {
    for (const [text, address] of [
      ["連絡先はtakeshi.mori@docomo.ne.jpです。", "takeshi.mori@docomo.ne.jp"],
      ["请发邮件到zhang.wei@qq.com谢谢", "zhang.wei@qq.com"],
      ["메일은 kim@naver.com입니다", "kim@naver.com"],
    ]) {
      const d = detectEmail(text);
      expect(covered(text, d), text).toEqual([address]);
      expect(d.level, text).toBe("l1_confident");
    }
    // An address written in those scripts stays whole.
    expect(covered("联系用户@例子.中国", detectEmail("联系用户@例子.中国"))).toEqual(["联系用户@例子.中国"]);
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
