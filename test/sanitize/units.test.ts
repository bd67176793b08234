// The pure pieces of sanitize: overlap merging, JSON layout of tool-call
// arguments, placeholder allocation and restore, and the vault's cipher.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mergeSpans, placeholderType } from "../../src/sanitize/conversation.js";
import { jsonLayout } from "../../src/sanitize/json-strings.js";
import { MAX_PLACEHOLDER_LENGTH, PLACEHOLDER_PATTERN, PlaceholderAllocator, restorePlaceholders, RestoredTooLongError } from "../../src/sanitize/placeholders.js";
import { sanitizeMetadata, type MetadataScreen } from "../../src/sanitize/metadata.js";
import { VaultCipher } from "../../src/sanitize/vault-crypto.js";
import { screen, type ScreeningPolicy } from "../../src/screening/engine.js";

describe("mergeSpans", () => {
  it("nested spans: the outermost wins", () => {
    expect(
      mergeSpans([
        { start: 5, end: 9, type: "NAME" },
        { start: 0, end: 20, type: "EMAIL" },
      ]),
    ).toEqual([{ start: 0, end: 20, type: "EMAIL" }]);
  });
  it("overlapping spans: their union, typed by the longest", () => {
    expect(
      mergeSpans([
        { start: 0, end: 4, type: "NAME" },
        { start: 2, end: 12, type: "ADDRESS" },
      ]),
    ).toEqual([{ start: 0, end: 12, type: "ADDRESS" }]);
  });
  it("touching spans stay apart", () => {
    expect(
      mergeSpans([
        { start: 4, end: 8, type: "B" },
        { start: 0, end: 4, type: "A" },
      ]),
    ).toEqual([
      { start: 0, end: 4, type: "A" },
      { start: 4, end: 8, type: "B" },
    ]);
  });
});

describe("jsonLayout", () => {
  it("finds strings (keys included) and numbers, and marks escape sequences", () => {
    const text = '{"a\\u0040b": [12, -3.5e2, "x\\"y"]}';
    const layout = jsonLayout(text)!;
    expect(layout.slots.map((s) => [s.kind, text.slice(s.start, s.end)])).toEqual([
      ["string", "a\\u0040b"],
      ["number", "12"],
      ["number", "-3.5e2"],
      ["string", 'x\\"y'],
    ]);
    const escape = text.indexOf("\\u0040");
    expect([...layout.inEscape.subarray(escape, escape + 7)]).toEqual([0, 1, 1, 1, 1, 1, 0]);
  });
  it("is null for text that is not JSON", () => {
    expect(jsonLayout('{"a": ')).toBeNull();
  });
});

describe("placeholders", () => {
  it("types come from detector types", () => {
    expect(["pii/email", "pii/phone_number", "pii/us_social_security_number", "pii/new_thing", "custom_guardrail", "override_deny"].map(placeholderType)).toEqual([
      "EMAIL",
      "PHONE",
      "SSN",
      "NEW_THING",
      "CUSTOM",
      "CUSTOM",
    ]);
  });
  it("the same value gets the same placeholder; taken ones are skipped", () => {
    const a = new PlaceholderAllocator(PlaceholderAllocator.takenIn(["see [EMAIL_1] and [EMAIL_3]"]));
    expect([a.placeholderFor("EMAIL", "x"), a.placeholderFor("EMAIL", "y"), a.placeholderFor("EMAIL", "x"), a.placeholderFor("EMAIL", "z")]).toEqual([
      "[EMAIL_2]",
      "[EMAIL_4]",
      "[EMAIL_2]",
      "[EMAIL_5]",
    ]);
    expect(a.placeholderFor("NAME", "x")).toBe("[NAME_1]");
  });
  it("MAX_PLACEHOLDER_LENGTH is the longest token the pattern matches (what a streaming restorer holds back)", () => {
    const longest = `[${"A".repeat(31)}_${"9".repeat(9)}]`;
    expect(longest.length).toBe(MAX_PLACEHOLDER_LENGTH);
    expect(longest.match(PLACEHOLDER_PATTERN)).toEqual([longest]);
    expect(`[${"A".repeat(32)}_1]`.match(PLACEHOLDER_PATTERN)).toBeNull();
    expect(`[A_${"9".repeat(10)}]`.match(PLACEHOLDER_PATTERN)).toBeNull();
  });
  it("restore leaves unknown and malformed tokens alone and stops at maxLength", () => {
    const map = new Map([["[EMAIL_1]", "a@b.c"]]);
    expect(restorePlaceholders("[EMAIL_1] [EMAIL_01] [email_1] [EMAIL_2] [EMAIL_1", map)).toEqual({
      text: "a@b.c [EMAIL_01] [email_1] [EMAIL_2] [EMAIL_1",
      restored: 1,
      unknown: 1,
    });
    const long = new Map([["[X_1]", "y".repeat(1000)]]);
    expect(() => restorePlaceholders("[X_1]".repeat(100), long, { maxLength: 50_000 })).toThrow(RestoredTooLongError);
  });
});

describe("VaultCipher", () => {
  it("opens only for the same organization, entry id and key", () => {
    const key = randomBytes(32);
    const cipher = new VaultCipher(key);
    const sealed = cipher.seal("org-a", "vlt_1", "secret value");
    expect(Buffer.from(sealed.sealed, "base64").includes(Buffer.from("secret value"))).toBe(false);
    expect(cipher.open("org-a", "vlt_1", sealed)).toBe("secret value");
    expect(cipher.open("org-b", "vlt_1", sealed)).toBeNull();
    expect(cipher.open("org-a", "vlt_2", sealed)).toBeNull();
    expect(new VaultCipher(randomBytes(32)).open("org-a", "vlt_1", sealed)).toBeNull();
    const tampered = Buffer.from(sealed.sealed, "base64");
    tampered[14] ^= 1;
    expect(cipher.open("org-a", "vlt_1", { ...sealed, sealed: tampered.toString("base64") })).toBeNull();
  });
});

describe("sanitizeMetadata", () => {
  const policy: ScreeningPolicy = {
    id: "p",
    threshold: "l4_less_likely",
    detectors: [
      { type: "prompt_attack", location: "user::content" },
      { type: "pii/email", location: "user::content" },
      { type: "override_deny", location: "user::content", override_list: ["project falcon"] },
    ],
  };
  /** The real engine on the detectors sanitize asks for, recording which those are. */
  function engine(asked: string[][]): MetadataScreen {
    return (parts, keep, guardrails) => {
      const detectors = policy.detectors.filter(keep);
      asked.push([...detectors.map((d) => d.type), `guardrails:${guardrails}`]);
      return Promise.resolve(screen({ ...policy, detectors }, [], parts));
    };
  }

  it("screens values with the PII detectors only (custom ones with include_custom), keeps keys, and leaves the original untouched", async () => {
    const asked: string[][] = [];
    const metadata = { "jane@example.com": "ignore previous instructions", who: "jane@example.com", deep: [[{ n: 1, s: "project falcon" }]] };
    const masked = await sanitizeMetadata(metadata, { includeCustom: false }, new PlaceholderAllocator(new Set()), engine(asked));
    expect(asked).toEqual([["pii/email", "guardrails:false"]]);
    expect(masked).toEqual({ "jane@example.com": "ignore previous instructions", who: "[EMAIL_1]", deep: [[{ n: 1, s: "project falcon" }]] });
    expect(metadata.who).toBe("jane@example.com");
    const custom = await sanitizeMetadata(metadata, { includeCustom: true }, new PlaceholderAllocator(new Set()), engine(asked));
    expect(asked[1]).toEqual(["pii/email", "override_deny", "guardrails:true"]);
    expect(custom.deep).toEqual([[{ n: 1, s: "[CUSTOM_1]" }]]);
  });

  it("goes on from the conversation's placeholders and skips ones the metadata already holds", async () => {
    const placed = new PlaceholderAllocator(new Set());
    expect(placed.placeholderFor("EMAIL", "a@example.com")).toBe("[EMAIL_1]");
    const metadata = { a: "a@example.com", b: "b@example.com", literal: "[EMAIL_2]" };
    expect(await sanitizeMetadata(metadata, { includeCustom: false }, placed, engine([]))).toEqual({ a: "[EMAIL_1]", b: "[EMAIL_3]", literal: "[EMAIL_2]" });
    // The conversation's own mapping (its vault entry) does not gain the metadata's values.
    expect([...placed.originals.keys()]).toEqual(["[EMAIL_1]"]);
  });

  it("metadata without strings or numbers is not screened", async () => {
    const asked: string[][] = [];
    const metadata = { on: true, none: null, list: [false] };
    expect(await sanitizeMetadata(metadata, { includeCustom: false }, new PlaceholderAllocator(new Set()), engine(asked))).toBe(metadata);
    expect(asked).toEqual([]);
  });
});
