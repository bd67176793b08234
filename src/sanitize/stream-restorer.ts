// Restoring a streamed answer as it is released (docs/sanitize.md#streaming):
// the text a GuardStream verdict releases, with a reversible sanitization's
// placeholders replaced by their originals. A release offset can fall inside a
// placeholder ("[EMA" released, "IL_1]" still held): the part that may open a
// placeholder waits for the next release, so a placeholder split across deltas
// or verdicts is restored whole.
import { codePointLength } from "../screening/normalize.js";
import { MAX_PLACEHOLDER_LENGTH, restorePlaceholders, type PlaceholderMap } from "./placeholders.js";

/** What may still become a placeholder: "[" and its capitals, digits and underscores, up to the end. */
const OPEN_PLACEHOLDER = /\[[A-Z0-9_]*$/;

export class StreamRestorer {
  /** Streamed text not yet given back restored. */
  private pending = "";
  /** Code points of the streamed text before `pending`. */
  private done = 0;

  constructor(
    private readonly map: PlaceholderMap,
    /** Longest restored piece, in UTF-16 units (RestoredTooLongError past it). */
    private readonly maxLength: number,
  ) {}

  append(delta: string): void {
    this.pending += delta;
  }

  /**
   * The restored text of the streamed text from where the last call stopped up
   * to `released` code points (everything when `final`), short of a
   * placeholder the offset may cut; and how far, in code points, it reaches.
   */
  release(released: number, final = false): { text: string; offset: number } {
    let units = final ? this.pending.length : unitsOf(this.pending, released - this.done);
    if (!final) {
      const tail = OPEN_PLACEHOLDER.exec(this.pending.slice(Math.max(0, units - MAX_PLACEHOLDER_LENGTH), units));
      if (tail) units -= tail[0].length;
    }
    if (units <= 0) return { text: "", offset: this.done };
    const taken = this.pending.slice(0, units);
    this.pending = this.pending.slice(units);
    this.done += codePointLength(taken);
    return { text: restorePlaceholders(taken, this.map, { maxLength: this.maxLength }).text, offset: this.done };
  }
}

/** UTF-16 units of the first `codePoints` code points of `s` (all of it when it has fewer). */
function unitsOf(s: string, codePoints: number): number {
  let units = 0;
  for (let n = 0; n < codePoints && units < s.length; n++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return units;
}
