// Where a tool call's JSON arguments can take a placeholder without becoming
// invalid JSON (docs/sanitize.md#tool-call-arguments): inside string literals
// (keys and values), never across a quote or through half an escape sequence;
// a number is replaced whole by a quoted placeholder.

/** A region of the JSON text, UTF-16 offsets, half-open. */
export interface JsonSlot {
  start: number;
  end: number;
  kind: "string" | "number";
}

export interface JsonLayout {
  /** String literal contents (between the quotes) and number tokens, in order. */
  slots: JsonSlot[];
  /** 1 at every UTF-16 offset inside an escape sequence after its backslash. */
  inEscape: Uint8Array;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The layout of `text` when it is valid JSON; null otherwise (then it is sanitized as plain text). */
export function jsonLayout(text: string): JsonLayout | null {
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  const slots: JsonSlot[] = [];
  const inEscape = new Uint8Array(text.length + 1);
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const start = ++i;
      while (text.charCodeAt(i) !== 0x22) {
        if (text.charCodeAt(i) === 0x5c) {
          const length = text.charCodeAt(i + 1) === 0x75 ? 6 : 2; // \uXXXX or \n, \", ...
          for (let k = 1; k < length; k++) inEscape[i + k] = 1;
          i += length;
        } else i++;
      }
      slots.push({ start, end: i, kind: "string" });
      i++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      NUMBER.exec(text);
      slots.push({ start: i, end: NUMBER.lastIndex, kind: "number" });
      i = NUMBER.lastIndex;
    } else i++;
  }
  return { slots, inEscape };
}

/** The decoded value of a piece of a string literal's content; the raw piece if it does not decode on its own. */
export function decodeStringPiece(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
