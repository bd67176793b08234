// The streamed text's bookkeeping (src/guard/stream/text-window.ts): code point offsets across
// deltas, windows that never lose the start of a long delta, and the hold-back point.
import { describe, expect, it } from "vitest";
import { StreamText } from "../../../src/guard/stream/text-window.js";

describe("StreamText", () => {
  it("counts a surrogate pair split across two deltas as one code point", () => {
    const t = new StreamText(100, 20);
    t.append("ab\ud83d");
    expect(t.codePoints).toBe(3);
    t.append("\ude00c");
    expect(t.codePoints).toBe(4);
    expect(t.whole()).toBe("ab😀c");
  });

  it("keeps the whole of a delta longer than it keeps, with the look-back before it", () => {
    const t = new StreamText(100, 20);
    t.append("x".repeat(500));
    const long = "jane.doe@example.com " + "y".repeat(5000);
    t.append(long);
    const w = t.window(t.length - long.length - 20);
    expect(w.text).toBe("x".repeat(20) + long);
    expect(w.startCp).toBe(480);
    expect(w.truncated).toBe(true);
    expect(w.endUnits).toBe(5521);
    // The next small delta trims what is kept back to the bound.
    t.append("z");
    expect(t.window(0).text.length).toBe(100);
  });

  it("answers windows in code points of the whole message", () => {
    const t = new StreamText(10, 4);
    t.append("😀😀😀😀😀😀");
    t.append("abc");
    const w = t.window(t.length - 3 - 4);
    expect(w.text).toBe("😀😀abc");
    expect(w.startCp).toBe(4);
    // A window never starts inside a pair.
    expect(t.window(t.length - 3 - 3).text).toBe("😀abc");
  });

  it("holds back the tail to the start of the word it falls in", () => {
    const t = new StreamText(1000, 200);
    t.append("short");
    expect(t.holdBackPoint(64)).toBe(0);
    const text = "a".repeat(100) + " " + "word".repeat(20);
    t.append(text);
    // 64 before the end falls inside the 80-character word: held back to its start (at most 64 further).
    expect(t.holdBackPoint(64)).toBe(5 + 101);
    // A word longer than that is held back 128 characters, no more.
    t.append("b".repeat(300));
    expect(t.holdBackPoint(64)).toBe(5 + 101 + 80 + 300 - 128);
    const u = new StreamText(1000, 200);
    u.append("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen");
    const p = u.holdBackPoint(16);
    expect(" " + u.whole()[p - 1]).toBe("  ");
  });
});
