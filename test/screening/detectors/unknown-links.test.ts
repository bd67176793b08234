import { describe, expect, it } from "vitest";
import { detectUnknownLinks, normalizeDomain } from "../../../src/screening/detectors/unknown-links.js";
import { covered, expectNothing } from "./helpers.js";

describe("unknown_links", () => {
  it("flags unknown URLs with and without scheme, one span each, labelled by registrable domain", () => {
    const text = "See https://a.b.evil-site.com/x?y=1, www.phish.org and bare evil.xyz/path.";
    const d = detectUnknownLinks(text);
    expect(covered(text, d)).toEqual(["https://a.b.evil-site.com/x?y=1", "www.phish.org", "evil.xyz/path"]);
    expect(d.spans.map((s) => s.labels)).toEqual([["evil-site.com"], ["phish.org"], ["evil.xyz"]]);
    expect(d.level).toBe("l1_confident");
  });

  it("lets well-known domains and their subdomains through", () => {
    expectNothing(detectUnknownLinks("Docs: https://docs.python.org/3/, github.com/nodejs/node and en.wikipedia.org/wiki/Lisbon"));
  });

  it("honours allowed_domains, subdomains included, in any spelling", () => {
    const cfg = { allowed_domains: ["HTTPS://Acme-Internal.com/", "*.corp.example.net"] };
    expectNothing(detectUnknownLinks("Go to https://portal.acme-internal.com/login or wiki.corp.example.net/x", cfg));
    expect(normalizeDomain("*.Bücher.DE/path")).toBe("xn--bcher-kva.de");
  });

  it("compares internationalized hosts in punycode", () => {
    const cfg = { allowed_domains: ["bücher.de"] };
    expectNothing(detectUnknownLinks("order at https://xn--bcher-kva.de/shop", cfg));
    const text = "visit https://пример.рф/путь now";
    expect(covered(text, detectUnknownLinks(text))).toEqual(["https://пример.рф/путь"]);
  });

  it("does not take file names, code, versions, e-mail addresses or abbreviations", () => {
    expectNothing(detectUnknownLinks("Attach report.pdf, index.js, main.py and README.md; see setup.cfg."));
    expectNothing(detectUnknownLinks("Use Node.js 20, e.g. v2.4.1, i.e. 3.14; the U.S. team at 3 p.m."));
    expectNothing(detectUnknownLinks("user.name = item.id; window.location; mail jane@example.org"));
    expectNothing(detectUnknownLinks("It ended.Next week we meet."));
  });

  it("flags scheme URLs to raw IP hosts", () => {
    const text = "download http://203.0.113.9/payload.exe";
    expect(covered(text, detectUnknownLinks(text))).toEqual(["http://203.0.113.9/payload.exe"]);
  });

  it("trims trailing punctuation and brackets, keeps UTF-16 offsets past emoji", () => {
    const text = "👉 (see https://evil.example-bad.com/a_(b)). 👈";
    expect(covered(text, detectUnknownLinks(text))).toEqual(["https://evil.example-bad.com/a_(b)"]);
  });
});
