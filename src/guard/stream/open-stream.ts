// One open stream, from its open verdict to its request log (docs/streaming.md):
// each delta screened by the exact detectors for its verdict while the text
// models trail it, the released text restored when the stream restores, the
// stream's place given back at the end. What a verdict says is decided in
// session.ts; opening is opener.ts's, the protocols are the handlers'.
import { create } from "@bufbuild/protobuf";
import { MessageSchema } from "../../../gen/parapet/v1/guard_pb.js";
import { ApiError } from "../../api/errors.js";
import { RestoredTooLongError } from "../../sanitize/placeholders.js";
import type { StreamRestorer } from "../../sanitize/stream-restorer.js";
import type { Part } from "../../screening/parts.js";
import type { GuardDeps } from "../deps.js";
import { logOf } from "../log-entry.js";
import { observeDecision } from "../observe-decision.js";
import { stepDeadline } from "./deadline.js";
import type { StreamTuning } from "./limits.js";
import type { StreamScreener } from "./screener.js";
import { noScreening, type StreamSession, type Verdict } from "./session.js";
import type { Window } from "./text-window.js";

/** What the open streams of one service share. */
export interface StreamContext {
  screener: StreamScreener;
  tuning: StreamTuning;
  deps: Pick<GuardDeps, "logs" | "rollups" | "metrics" | "log" | "requestTimeoutMs" | "access">;
}

export class OpenStream {
  /** The text model pass running now, if any. */
  private modelPass?: Promise<void>;
  /** The log write, once started (a failed one is cleared, so a retried close logs). */
  private logged?: Promise<void>;

  constructor(
    private readonly context: StreamContext,
    private readonly session: StreamSession,
    /** Gives the stream's place back (StreamCapacity; idempotent). */
    private readonly release: () => void,
    /** The conversation's system and developer messages, screened with the streamed text. */
    private readonly instructions: readonly string[],
    /** With restore_vault_id: the released text, placeholders restored. */
    private readonly restorer?: StreamRestorer,
  ) {}

  get orgId(): string {
    return this.session.setup.orgId;
  }

  /** The verdict of the open (the conversation's detections). */
  openVerdict(): Verdict {
    return this.restored(this.session.openVerdict());
  }

  /** The verdict of the next delta; `offset`, when the client sends one, must be the code points received so far (a retried delta is refused, not appended twice). */
  async delta(text: string, offset?: number): Promise<Verdict> {
    const received = this.session.text.codePoints;
    if (offset !== undefined && offset !== received) {
      throw new ApiError("conflict", `the delta starts at offset ${offset} but the stream has received ${received} code points`);
    }
    const started = performance.now();
    try {
      return await this.judgeDelta(text);
    } finally {
      this.context.deps.metrics?.streamDelta.observe((performance.now() - started) / 1000);
    }
  }

  /** The final verdict, once logged; a failed log write leaves the stream open to a retried close. */
  async close(requestUuid: string): Promise<Verdict> {
    this.session.finished = true;
    await this.catchUpModels();
    // A stopped stream keeps its unreleased text back from the restored answer too.
    const verdict = this.restored(this.session.closeVerdict(requestUuid), !this.session.stopped);
    await this.finish(requestUuid);
    this.release();
    return verdict;
  }

  /** A stream that ended without a close (disconnect, error, expiry, shutdown): logged as it stands, once. */
  async abandon(requestUuid: string): Promise<void> {
    const { deps } = this.context;
    try {
      if (this.logged) await this.logged;
      else {
        this.session.finished = true;
        await this.catchUpModels().catch(() => {});
        this.session.closeVerdict(requestUuid);
        await stepDeadline(deps.requestTimeoutMs, () => this.finish(requestUuid));
      }
    } catch (err) {
      deps.log?.warn({ request_id: requestUuid, err: String(err) }, "abandoned stream not logged");
    } finally {
      this.release();
    }
  }

  private async judgeDelta(text: string): Promise<Verdict> {
    const { session } = this;
    const { tuning } = this.context;
    const refused = session.admit(text);
    if (refused === "stopped") throw new ApiError("conflict", "the stream was stopped (flagged in enforce mode) and takes no more deltas; close it");
    if (refused === "finished") throw new ApiError("conflict", "the stream is closed");
    if (refused === "too_many_deltas") throw new ApiError("payload_too_large", `a stream may send at most ${tuning.maxDeltas} deltas`);
    if (refused === "too_long") throw new ApiError("payload_too_large", `a stream's text may be at most ${tuning.maxTextBytes} bytes (UTF-8), the request body limit`);
    const window = session.append(text);
    this.restorer?.append(text);
    if (text === "") return this.restored(session.deltaVerdict(window, noScreening));
    const screening = await this.context.screener.screen(session.setup.orgId, session.setup.resolved, [this.partOf(window)], "exact", "here");
    // The text models trail by at most a bounded backlog: past it, this delta waits for them.
    if (session.modelBacklog > tuning.modelMaxBacklog) await this.catchUpModels();
    const verdict = this.restored(session.deltaVerdict(window, screening));
    this.scheduleModels();
    return verdict;
  }

  private partOf(window: Window): Part {
    const part: Part = { location: this.session.setup.location, messageId: this.session.messageId, text: window.text };
    if (this.instructions.length) part.instructions = this.instructions;
    return part;
  }

  /**
   * One text model pass over what they have not scored yet. On a screening worker when there
   * is one, so the verdicts on the main thread do not wait for it; a pass that fails (a full
   * worker queue) is retried with the next delta.
   */
  private async runModels(background: boolean): Promise<void> {
    const { session } = this;
    const window = session.modelWindow();
    if (!window || session.modelBusy) return;
    session.modelBusy = true;
    try {
      const screening = session.setup.textModels
        ? await this.context.screener.screen(session.setup.orgId, session.setup.resolved, [this.partOf(window)], "models", background ? "worker" : "auto")
        : noScreening;
      session.modelDone(window, screening);
    } finally {
      session.modelBusy = false;
    }
  }

  /** Starts a text model pass after this delta's verdict, unless one is running. */
  private scheduleModels(): void {
    if (this.modelPass || this.session.finished) return;
    this.modelPass = this.runModels(true)
      .catch((err) => {
        // A full worker queue is load, not a fault: the next delta retries.
        if (!(err instanceof ApiError && err.id === "unavailable")) {
          this.context.deps.log?.warn({ err: String(err) }, "stream text model pass failed; retried with the next delta");
        }
      })
      .finally(() => {
        this.modelPass = undefined;
      });
  }

  /**
   * Waits for the running pass, then scores whatever is left, by the rule of /v2/guard (inline
   * unless large), so a full worker queue cannot fail a close: before a close, or when the
   * backlog is too long.
   */
  private async catchUpModels(): Promise<void> {
    await this.modelPass;
    await this.runModels(false);
  }

  /** The verdict with the text it released restored, when the stream restores (everything when `final`). */
  private restored(verdict: Verdict, final = false): Verdict {
    if (!this.restorer) return verdict;
    let piece;
    try {
      piece = this.restorer.release(verdict.releasedOffset, final);
    } catch (err) {
      if (err instanceof RestoredTooLongError) throw new ApiError("payload_too_large", err.message);
      throw err;
    }
    return { ...verdict, restoredText: piece.text, restoredOffset: piece.offset };
  }

  /** Logs the stream once, as /v2/guard logs a request: the conversation and the whole streamed text. */
  private finish(requestUuid: string): Promise<void> {
    this.logged ??= this.writeLog(requestUuid).catch((err: unknown) => {
      this.logged = undefined;
      throw err;
    });
    return this.logged;
  }

  private async writeLog(requestUuid: string): Promise<void> {
    const { session } = this;
    const { setup } = session;
    const { deps } = this.context;
    const messages = [...setup.messages, create(MessageSchema, { role: setup.role, content: session.text.whole() })];
    const log = logOf(requestUuid, setup.openedAt, setup.orgId, setup.resolved, session.flagged, session.screening(), messages, setup.metadata, {
      keyId: setup.keyId,
    });
    await Promise.all([deps.logs.append(log), deps.rollups.record(setup.orgId, setup.resolved.project._id, setup.openedAt, log.fired, { flagged: log.flagged })]);
    observeDecision(deps, log);
  }
}
