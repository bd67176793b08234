// Typed placeholders ([EMAIL_1], [NAME_2], ...) and putting originals back in
// their place (docs/sanitize.md#placeholders). Pure: no storage, no requests, so
// the vault, the unary restore and a streaming restorer share one definition.

/**
 * A placeholder: `[`, a type of capitals, digits and `_`, `_`, a number without
 * leading zero, `]`. Bounded in length so scanning a text is linear and a
 * streaming restorer knows how much of a delta it may have to hold back.
 */
export const PLACEHOLDER_PATTERN = /\[[A-Z][A-Z0-9_]{0,30}_[1-9][0-9]{0,8}\]/g;

/** The longest text PLACEHOLDER_PATTERN matches. */
export const MAX_PLACEHOLDER_LENGTH = 1 + 31 + 1 + 9 + 1;

/** Placeholder -> original value, as a vault entry keeps it. */
export type PlaceholderMap = ReadonlyMap<string, string>;

export interface Restored {
  text: string;
  /** Placeholders replaced, once per occurrence. */
  restored: number;
  /** Placeholder-shaped tokens not in the map, left as they were. */
  unknown: number;
}

/**
 * `text` with every placeholder of `map` replaced by its original. Tokens that
 * look like placeholders but are not in `map` stay as they are: the allocator
 * never hands out a placeholder that already occurred in the request, so such
 * a token is the user's or the model's own text, not a masked value.
 */
export function restorePlaceholders(text: string, map: PlaceholderMap, options: { maxLength?: number } = {}): Restored {
  const maxLength = options.maxLength ?? Infinity;
  let restored = 0;
  let unknown = 0;
  let length = text.length;
  const out = text.replace(PLACEHOLDER_PATTERN, (token) => {
    const original = map.get(token);
    if (original === undefined) {
      unknown++;
      return token;
    }
    restored++;
    // Checked as it grows: a short text of many placeholders of long values must not be built first.
    length += original.length - token.length;
    if (length > maxLength) throw new RestoredTooLongError(maxLength);
    return original;
  });
  return { text: out, restored, unknown };
}

/** The restored text would exceed the `maxLength` given to restorePlaceholders. */
export class RestoredTooLongError extends Error {
  constructor(readonly maxLength: number) {
    super(`the restored text would be longer than ${maxLength} characters; restore it in smaller pieces`);
    this.name = "RestoredTooLongError";
  }
}

/**
 * Hands out placeholders for one request (one vault entry): the same type and
 * value get the same placeholder, and a placeholder that already occurs in the
 * request's text is never used, so restoring cannot turn the user's literal
 * "[EMAIL_1]" into someone's address.
 */
export class PlaceholderAllocator {
  private readonly byValue = new Map<string, string>();
  private readonly next = new Map<string, number>();
  readonly originals = new Map<string, string>();

  constructor(private readonly taken: ReadonlySet<string>) {}

  /** Every placeholder-shaped token of `texts`: the ones the allocator must skip. */
  static takenIn(texts: Iterable<string>): Set<string> {
    const taken = new Set<string>();
    for (const t of texts) for (const m of t.matchAll(PLACEHOLDER_PATTERN)) taken.add(m[0]);
    return taken;
  }

  /**
   * An allocator that goes on from this one (a value it placed keeps its placeholder, new ones are
   * numbered after its own, and placeholders in `texts` are skipped too) but keeps its own
   * `originals`: for text that is masked and never restored, such as a request's metadata.
   */
  continued(texts: Iterable<string>): PlaceholderAllocator {
    const taken = new Set(this.taken);
    for (const t of PlaceholderAllocator.takenIn(texts)) taken.add(t);
    const next = new PlaceholderAllocator(taken);
    for (const [k, v] of this.byValue) next.byValue.set(k, v);
    for (const [k, v] of this.next) next.next.set(k, v);
    return next;
  }

  placeholderFor(type: string, value: string): string {
    const key = `${type}\u0000${value}`;
    const known = this.byValue.get(key);
    if (known) return known;
    let n = this.next.get(type) ?? 1;
    let token = `[${type}_${n}]`;
    while (this.taken.has(token)) token = `[${type}_${++n}]`;
    this.next.set(type, n + 1);
    this.byValue.set(key, token);
    this.originals.set(token, value);
    return token;
  }
}
