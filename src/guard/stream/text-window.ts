// The streamed message's text, kept so that each delta costs work in
// proportion to the delta plus a bounded look-back (docs/streaming.md#window):
// the deltas are kept as pieces and joined once, at close; only the last
// `keep` characters (and always the whole latest delta, with `before`
// characters before it) stay as one string for the detectors to see again.
// Offsets a client sees are Unicode code points, as in /v2/guard payloads;
// the count is kept incrementally, with a surrogate pair split across two
// deltas counted as the one code point it becomes.
import { codePointLength } from "../../screening/normalize.js";

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** A stretch of the message the detectors screen, and where it sits in it. */
export interface Window {
  text: string;
  /** Code point offset of `text` in the message. */
  startCp: number;
  /** UTF-16 offset just past `text` in the message. */
  endUnits: number;
  /** The window starts after the message's start: a span beginning at its first character may be cut off. */
  truncated: boolean;
}

export class StreamText {
  private readonly pieces: string[] = [];
  /** The last characters of the message, from UTF-16 offset `recentStart`. */
  private recent = "";
  private recentStart = 0;
  /** Code points of the whole message so far. */
  private cp = 0;
  private units = 0;
  bytes = 0;

  constructor(
    private readonly keep: number,
    /** Characters always kept before a new delta, however long the delta: the windows' look-back. */
    private readonly before: number,
  ) {}

  get codePoints(): number {
    return this.cp;
  }

  /** UTF-16 length of the message so far. */
  get length(): number {
    return this.units;
  }

  append(delta: string): void {
    const joinsPair = this.recent.length > 0 && delta.length > 0 && isHigh(this.recent.charCodeAt(this.recent.length - 1)) && isLow(delta.charCodeAt(0));
    this.pieces.push(delta);
    this.units += delta.length;
    this.bytes += Buffer.byteLength(delta);
    this.cp += codePointLength(delta) - (joinsPair ? 1 : 0);
    let kept = this.recent;
    const over = kept.length + delta.length - this.keep;
    if (over > 0 && kept.length > this.before) {
      let cut = Math.min(over, kept.length - this.before);
      // Never start inside a surrogate pair: the window's code point count would be off by one.
      if (cut < kept.length && isLow(kept.charCodeAt(cut)) && isHigh(kept.charCodeAt(cut - 1))) cut++;
      kept = kept.slice(cut);
      this.recentStart += cut;
    }
    this.recent = kept + delta;
  }

  /** The text from UTF-16 offset `from` (clamped to what is kept) to the end. */
  window(from: number): Window {
    let start = Math.max(0, from - this.recentStart);
    if (start > 0 && start < this.recent.length && isLow(this.recent.charCodeAt(start)) && isHigh(this.recent.charCodeAt(start - 1))) start++;
    const text = this.recent.slice(start);
    return { text, startCp: this.cp - codePointLength(text), endUnits: this.units, truncated: this.recentStart + start > 0 };
  }

  /** Code point offset of UTF-16 offset `at`, which must be within the kept text. */
  codePointAt(at: number): number {
    return this.cp - codePointLength(this.recent.slice(Math.max(0, at - this.recentStart)));
  }

  /**
   * Code point offset of the hold-back point: `holdBack` characters before
   * the end, moved back to the start of the token it falls in (at most
   * `holdBack` further), so a word, number or address still being written is
   * never released in part.
   */
  holdBackPoint(holdBack: number): number {
    const s = this.recent;
    let h = s.length - holdBack;
    if (h <= 0) return this.units > s.length ? this.cp - codePointLength(s) : 0;
    const floor = Math.max(0, h - holdBack);
    while (h > floor && !/\s/.test(s[h - 1])) h--;
    if (h > 0 && isLow(s.charCodeAt(h)) && isHigh(s.charCodeAt(h - 1))) h--;
    return this.cp - codePointLength(s.slice(h));
  }

  /** The whole message: joined once, at close. */
  whole(): string {
    const text = this.pieces.join("");
    this.pieces.length = 0;
    this.pieces.push(text);
    return text;
  }
}
