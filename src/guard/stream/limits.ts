// What one stream and all of them may hold (docs/streaming.md#limits).

/** How a stream screens and what it may take. */
export interface StreamTuning {
  /** Characters of the message kept in one string for the windows below (the rest is kept as pieces for the log). */
  keepChars: number;
  /** Characters before each delta that the exact detectors screen again with it: entities up to this long are found whole. */
  exactLookBack: number;
  /** Characters before the text the text models have not scored yet that they score again with it, as context. */
  modelOverlap: number;
  /** Past this many characters not yet scored by the text models, a delta waits for their pass. */
  modelMaxBacklog: number;
  /** Characters at the end that are never released before more text (or the close) shows they are complete. */
  holdBackChars: number;
  /** Deltas one stream may send. */
  maxDeltas: number;
  /** UTF-8 bytes of streamed text one stream may send: the request body limit, which bounds /v2/guard's text too. */
  maxTextBytes: number;
}

export interface StreamLimits {
  /** A stream without a message for this long ends (REST sessions expire; GuardStream calls end with 504). */
  idleMs: number;
  /** Open streams, GuardStream calls and REST sessions together: per organization (429 past it) and in all (503). */
  maxPerOrg: number;
  maxTotal: number;
  maxDeltas: number;
}

/**
 * The windows of docs/streaming.md#window: entities up to 256 characters are found whole; the text
 * models get about one of their own chunks (~400 characters) of context and trail the text by at
 * most 2,000 characters; the last 64 characters (to the start of their word) are held back.
 */
export const streamTuning = { keepChars: 4000, exactLookBack: 256, modelOverlap: 400, modelMaxBacklog: 2000, holdBackChars: 64 } as const;
