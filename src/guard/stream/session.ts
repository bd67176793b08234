// One streamed message under screening (docs/streaming.md): the decisions of
// the verdicts — what is released, what is reported, when to stop — over the
// windows the detectors screen. No I/O: the caller screens and logs.
import type { Message } from "../../../gen/parapet/v1/guard_pb.js";
import type { Outcome, OutcomeSpan, Screening } from "../../screening/engine.js";
import { kindOf, reportsPayload } from "../../screening/registry.js";
import { codePointLength } from "../../screening/normalize.js";
import { levelRank, type Level, type Location } from "../../screening/vocabulary.js";
import { breakdownItemOf, payloadOf, type BreakdownInit, type PayloadInit } from "../answer-items.js";
import type { Resolved } from "../resolve.js";
import type { StreamTuning } from "./limits.js";
import { StreamText, type Window } from "./text-window.js";

/** A GuardStreamVerdict, as handlers return it. */
export interface Verdict {
  streamId?: string;
  messageId: number;
  received: number;
  releasedOffset: number;
  detected: boolean;
  flagged: boolean;
  stop: boolean;
  closed?: boolean;
  payload: PayloadInit[];
  breakdown: BreakdownInit[];
  metadata?: { requestUuid: string };
  /** With restore_vault_id (docs/sanitize.md#streaming). */
  restoredText?: string;
  restoredOffset?: number;
}

export interface StreamSetup {
  orgId: string;
  resolved: Resolved;
  /** The conversation the stream was opened with; the streamed message follows it. */
  messages: Message[];
  role: string;
  location: Location;
  payload: boolean;
  breakdown: boolean;
  /** Stored with the log, as /v2/guard stores `metadata`. */
  metadata: string;
  /** The key that opened the stream, logged with it as /v2/guard logs its key. */
  keyId?: string;
  openedAt: Date;
  /** The conversation's screening, done once at open. */
  conversation: Screening;
  /** The policy runs text models at the streamed message's location. */
  textModels: boolean;
}

/** The streamed message's result for one detector, over every window screened so far. */
interface Tally {
  detectorId: string;
  detectorType: string;
  level: Level;
  /** Reported spans, in code points of the whole message. */
  spans: OutcomeSpan[];
  matched: boolean;
  flagged: boolean;
  customMatched: boolean;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/**
 * The learned text models (kind `text_model` in their definitions) score a
 * region, not a token, and cost the most per character: they run beside the
 * verdicts rather than in them (docs/streaming.md#window).
 */
export function isTextModel(type: string): boolean {
  return kindOf(type) === "text_model";
}

/** What the screenings folded into one verdict found. */
interface Found {
  payload: PayloadInit[];
  breakdown: BreakdownInit[];
  /** Start of the earliest newly reported span. */
  firstFlagStart: number;
  /** Start of the earliest exact span still held back (it may grow). */
  pendingStart: number;
}

/** The screening of a window no detector looked at. */
export const noScreening: Screening = { outcomes: [], detected: false };

export class StreamSession {
  readonly text: StreamText;
  readonly messageId: number;
  private readonly tallies = new Map<string, Tally>();
  private released = 0;
  private deltas = 0;
  private flaggedSoFar: boolean;
  stopped: boolean;
  /** Closing or closed (also when abandoned): no more deltas. */
  finished = false;
  /** The latest delta's window and its screening by every detector but the text models. */
  private lastExact: { window: Window; screening: Screening } | null = null;
  /** Text models' screenings done since the last verdict. */
  private modelResults: { window: Window; screening: Screening }[] = [];
  /** How far the text models have scored: UTF-16 offset and code points. */
  private modelUnits = 0;
  private modelCp = 0;
  /** A text model pass is running (one at a time per stream). */
  modelBusy = false;

  constructor(
    readonly setup: StreamSetup,
    private readonly tuning: StreamTuning,
  ) {
    this.text = new StreamText(tuning.keepChars, Math.max(tuning.exactLookBack, tuning.modelOverlap + tuning.modelMaxBacklog));
    this.messageId = setup.messages.length;
    this.flaggedSoFar = this.enforce && setup.conversation.detected;
    this.stopped = this.flaggedSoFar;
  }

  private get enforce(): boolean {
    return this.setup.resolved.project.action === "enforce";
  }

  /** Refuses a delta the stream may not take (the caller turns the reason into its error). */
  admit(delta: string): "stopped" | "finished" | "too_many_deltas" | "too_long" | null {
    if (this.finished) return "finished";
    if (this.stopped) return "stopped";
    if (this.deltas >= this.tuning.maxDeltas) return "too_many_deltas";
    // Checked on the UTF-16 length first: Buffer.byteLength of a huge string is itself work.
    if (delta.length > this.tuning.maxTextBytes || this.text.bytes + Buffer.byteLength(delta) > this.tuning.maxTextBytes) return "too_long";
    return null;
  }

  /** Takes a delta admitted by `admit`; answers the window every detector but the text models screens for it. */
  append(delta: string): Window {
    this.deltas++;
    this.text.append(delta);
    return this.text.window(this.text.length - delta.length - this.tuning.exactLookBack);
  }

  /** The window the text models must score next (the text since their last pass, with some context), or null when they are up to date. */
  modelWindow(): Window | null {
    if (this.modelUnits >= this.text.length) return null;
    return this.text.window(this.modelUnits - this.tuning.modelOverlap);
  }

  /** Characters the text models have yet to score. */
  get modelBacklog(): number {
    return this.text.length - this.modelUnits;
  }

  /** A text model pass over `window` finished; its findings go into the next verdict. */
  modelDone(window: Window, screening: Screening): void {
    if (window.endUnits <= this.modelUnits) return;
    this.modelResults.push({ window, screening });
    this.modelUnits = window.endUnits;
    this.modelCp = window.startCp + codePointLength(window.text);
  }

  /** The verdict of the stream's opening: the conversation's detections, as /v2/guard reports them. */
  openVerdict(): Verdict {
    const c = this.setup.conversation;
    return this.verdict(c.detected, {
      payload: this.setup.payload ? payloadOf(c.outcomes) : [],
      breakdown: this.setup.breakdown ? c.outcomes.map((o) => this.breakdownItem(o, o.flagged)) : [],
    });
  }

  /** The verdict of a delta whose window `screening` screened (every detector but the text models). */
  deltaVerdict(window: Window, screening: Screening): Verdict {
    this.lastExact = { window, screening };
    return this.judge(false);
  }

  /** The final verdict, once the text models have scored everything: nothing is held back now; payload and breakdown cover the whole conversation. */
  closeVerdict(requestUuid: string): Verdict {
    const v = this.judge(true);
    const all = this.screening();
    return {
      ...v,
      closed: true,
      payload: this.setup.payload ? payloadOf(all.outcomes) : [],
      breakdown: this.setup.breakdown ? all.outcomes.map((o) => this.breakdownItem(o, o.flagged)) : [],
      metadata: { requestUuid },
    };
  }

  /** The request as /v2/guard would have screened it: the conversation's outcomes and the streamed message's tallies. */
  screening(): Screening {
    const streamed: Outcome[] = [...this.tallies.values()].map((t) => ({
      detectorId: t.detectorId,
      detectorType: t.detectorType,
      location: this.setup.location,
      messageId: this.messageId,
      level: t.level,
      spans: t.spans,
      customMatched: t.customMatched,
      matched: t.matched,
      flagged: t.flagged,
    }));
    const outcomes = [...this.setup.conversation.outcomes, ...streamed];
    return { outcomes, detected: outcomes.some((o) => o.flagged) };
  }

  /** As /v2/guard's `flagged`: detected, in enforce mode. */
  get flagged(): boolean {
    return this.flaggedSoFar;
  }

  private judge(final: boolean): Verdict {
    const hold = final ? Infinity : this.text.holdBackPoint(this.tuning.holdBackChars);
    const found: Found = { payload: [], breakdown: [], firstFlagStart: Infinity, pendingStart: Infinity };
    for (const r of this.modelResults) this.fold(r.window, r.screening, hold, found);
    this.modelResults = [];
    if (this.lastExact) this.fold(this.lastExact.window, this.lastExact.screening, hold, found);
    const detected = found.firstFlagStart !== Infinity;
    if (!this.stopped) {
      // Released: what every detector has judged, short of the held-back tail and of any span still growing.
      const judged = final ? this.text.codePoints : Math.min(hold, this.setup.textModels ? this.modelCp : Infinity);
      const candidate = Math.min(judged, found.pendingStart);
      this.released = Math.max(this.released, Math.min(candidate, this.enforce && detected ? found.firstFlagStart : Infinity));
    }
    return this.verdict(detected, found);
  }

  /** Adds a window's findings to `found`: new spans reported, spans that may still grow held back, repeats dropped. */
  private fold(window: Window, screening: Screening, hold: number, found: Found): void {
    for (const o of screening.outcomes) {
      let t = this.tallies.get(o.detectorId);
      if (!t) {
        t = { detectorId: o.detectorId, detectorType: o.detectorType, level: o.level, spans: [], matched: false, flagged: false, customMatched: false };
        this.tallies.set(o.detectorId, t);
      }
      if (levelRank[o.level] < levelRank[t.level]) t.level = o.level;
      if (!o.flagged) continue;
      const fresh: OutcomeSpan[] = [];
      // Exact detectors' spans are entities (an address, a number, a match) that may still be growing at the end;
      // the text models' spans are regions they judged as they stand.
      const exact = !isTextModel(o.detectorType) && o.spans.length > 0;
      const spans = o.spans.length ? o.spans : [{ start: 0, end: codePointLength(window.text), text: "", labels: [] }];
      for (const s of spans) {
        // The window may cut a span that began before it: the window that saw it whole judged it.
        if (window.truncated && s.start === 0 && o.spans.length) continue;
        const abs = { ...s, start: s.start + window.startCp, end: s.end + window.startCp };
        if (t.spans.some((r) => overlaps(r, abs)) || fresh.some((r) => overlaps(r, abs))) continue;
        if (exact && abs.end >= hold) {
          found.pendingStart = Math.min(found.pendingStart, abs.start);
          continue;
        }
        fresh.push(abs);
      }
      if (!fresh.length) continue;
      const first = !t.flagged;
      t.spans.push(...fresh);
      t.matched = t.flagged = true;
      t.customMatched ||= o.customMatched;
      for (const s of fresh) found.firstFlagStart = Math.min(found.firstFlagStart, s.start);
      if (this.setup.payload && reportsPayload(o.detectorType)) {
        for (const s of fresh)
          found.payload.push({ start: s.start, end: s.end, text: s.text, detectorType: o.detectorType, labels: s.labels, messageId: this.messageId });
      }
      if (this.setup.breakdown && first) found.breakdown.push(this.breakdownItem({ ...o, messageId: this.messageId }, true));
    }
  }

  private verdict(detected: boolean, found: Pick<Found, "payload" | "breakdown">): Verdict {
    if (detected && this.enforce) this.flaggedSoFar = true;
    if (this.flaggedSoFar) this.stopped = true;
    return {
      messageId: this.messageId,
      received: this.text.codePoints,
      releasedOffset: this.released,
      detected,
      flagged: this.flaggedSoFar,
      stop: this.stopped,
      payload: found.payload,
      breakdown: found.breakdown,
    };
  }

  private breakdownItem(o: Outcome, detected: boolean): BreakdownInit {
    const { project, policy } = this.setup.resolved;
    return breakdownItemOf(o, { projectId: project._id, policyId: policy._id }, detected);
  }
}
