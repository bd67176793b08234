// GuardStream and its REST sessions (docs/streaming.md): the handlers, the
// sessions' lifetimes and the screening and logging of each stream. What a
// verdict says is decided in session.ts.
import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { createValidator } from "@bufbuild/protovalidate";
import { pathToString } from "@bufbuild/protobuf/reflect";
import { ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { v7 as uuidv7 } from "uuid";
import { GuardStreamOpenSchema, MessageSchema, type GuardService, type GuardStreamOpen, type GuardStreamRequest } from "../../../gen/parapet/v1/guard_pb.js";
import type { AnalyticsRollups } from "../../analytics/repository.js";
import { principalKey, requestIdOf } from "../../api/context.js";
import { ApiError, frameworkError, toConnectError } from "../../api/errors.js";
import { maxJsonDepth, tooDeepJsonField } from "../../api/interceptors/json-depth.js";
import { callerOrg } from "../../api/tenant.js";
import type { Organizations } from "../../auth/organizations-repository.js";
import type { CustomGuardrails } from "../../custom-guardrails/repository.js";
import type { GuardLogs } from "../../logs/repository.js";
import type { Policies } from "../../policies/repository.js";
import type { Projects } from "../../projects/repository.js";
import type { Screening } from "../../screening/engine.js";
import { contentText, partsOf, type Part } from "../../screening/parts.js";
import type { Location } from "../../screening/vocabulary.js";
import { withoutStorageDeadline, withStorageDeadline } from "../../storage/deadline.js";
import { logOf } from "../log-entry.js";
import { RequestScreener, type Placement, type ScreenerDeps } from "../request-screener.js";
import { resolvePolicy, type Resolved } from "../resolve.js";
import { StreamCapacity } from "./capacity.js";
import { streamTuning, type StreamLimits, type StreamTuning } from "./limits.js";
import { isTextModel, noScreening, StreamSession, type Verdict } from "./session.js";
import type { Window } from "./text-window.js";
import { vaultMapping, type SanitizeDeps } from "../../sanitize/service.js";
import { RestoredTooLongError } from "../../sanitize/placeholders.js";
import { StreamRestorer } from "../../sanitize/stream-restorer.js";

export interface GuardStreamDeps extends ScreenerDeps {
  orgs: Organizations;
  policies: Policies;
  projects: Projects;
  guardrails: CustomGuardrails;
  logs: GuardLogs;
  rollups: AnalyticsRollups;
  maxMessages: number;
  /** The request body limit: also the most streamed text (UTF-8 bytes) one stream may send. */
  maxBodyBytes: number;
  requestTimeoutMs: number;
  limits: StreamLimits;
  log?: { warn(obj: object, msg: string): void };
  /** The vault, for streams that restore a reversible sanitization on the fly. */
  sanitize?: SanitizeDeps;
}

export type GuardStreamMethod = "guardStream" | "openGuardStream" | "appendGuardStream" | "closeGuardStream";
type StreamHandlers = Pick<ServiceImpl<typeof GuardService>, GuardStreamMethod>;

export interface GuardStreams {
  handlers: StreamHandlers;
  capacity: StreamCapacity;
  /** REST sessions open now (tests). */
  sessions(): number;
  /** Shutdown: open REST sessions are logged as they stand and dropped. */
  close(): Promise<void>;
}

/** A session and the place it holds. */
interface Open {
  session: StreamSession;
  /** With restore_vault_id: the released text, placeholders restored. */
  restorer?: StreamRestorer;
  release: () => void;
  instructions: readonly string[];
  /** The text model pass running now, if any. */
  modelPass?: Promise<void>;
  /** The log write, once started (a failed one is cleared, so a retried close logs). */
  logged?: Promise<void>;
}

interface RestSession {
  id: string;
  orgId: string;
  open: Open;
  timer: NodeJS.Timeout;
  /** Calls on one session run one after the other. */
  chain: Promise<unknown>;
}

const locationOfRole: Record<string, Location> = { "": "assistant::content", assistant: "assistant::content", user: "user::content", tool: "tool::content" };

/** Storage calls of a stream's own steps, each under a fresh request deadline rather than the call's, which may be long past. */
function stepDeadline<R>(ms: number, fn: () => Promise<R>): Promise<R> {
  return withoutStorageDeadline(() => withStorageDeadline(Date.now() + ms, fn));
}

export function guardStreams(deps: GuardStreamDeps): GuardStreams {
  const screener = new RequestScreener(deps);
  const validator = createValidator();
  const capacity = new StreamCapacity(deps.limits.maxPerOrg, deps.limits.maxTotal, Math.max(1, Math.ceil(deps.limits.idleMs / 1000)));
  const tuning: StreamTuning = { ...streamTuning, maxDeltas: deps.limits.maxDeltas, maxTextBytes: deps.maxBodyBytes };
  const rest = new Map<string, RestSession>();
  const idleS = Math.round(deps.limits.idleMs / 1000);

  /**
   * Screens `parts` by the policy's detectors that `which` keeps (all by default). Custom
   * guardrails are exact matchers: they run with the exact detectors. Small work inline,
   * large work on a screening worker, as /v2/guard; `place` as RequestScreener.screen's.
   */
  async function screenParts(orgId: string, resolved: Resolved, parts: Part[], which: "all" | "exact" | "models" = "all", place: Placement = "auto"): Promise<Screening> {
    const detectors = which === "all" ? resolved.policy.detectors : resolved.policy.detectors.filter((d) => isTextModel(d.type) === (which === "models"));
    const guardrails = which === "models" ? [] : resolved.guardrails;
    const policy = { id: resolved.policy._id, threshold: resolved.policy.default_threshold, detectors };
    return screener.screen(policy, guardrails, parts, orgId, Date.now() + deps.requestTimeoutMs, place);
  }

  function partOf(o: Open, window: Window): Part {
    const part: Part = { location: o.session.setup.location, messageId: o.session.messageId, text: window.text };
    if (o.instructions.length) part.instructions = o.instructions;
    return part;
  }

  /**
   * One text model pass over what they have not scored yet. On a screening worker when there
   * is one, so the verdicts on the main thread do not wait for it; a pass that fails (a full
   * worker queue) is retried with the next delta.
   */
  async function modelPass(o: Open, background: boolean): Promise<void> {
    const { session } = o;
    const window = session.modelWindow();
    if (!window || session.modelBusy) return;
    session.modelBusy = true;
    try {
      const screening = session.setup.textModels
        ? await screenParts(session.setup.orgId, session.setup.resolved, [partOf(o, window)], "models", background ? "worker" : "auto")
        : noScreening;
      session.modelDone(window, screening);
    } finally {
      session.modelBusy = false;
    }
  }

  /** Starts a text model pass after this delta's verdict, unless one is running. */
  function scheduleModels(o: Open): void {
    if (o.modelPass || o.session.finished) return;
    o.modelPass = modelPass(o, true)
      .catch((err) => {
        // A full worker queue is load, not a fault: the next delta retries.
        if (!(err instanceof ApiError && err.id === "unavailable")) deps.log?.warn({ err: String(err) }, "stream text model pass failed; retried with the next delta");
      })
      .finally(() => {
        o.modelPass = undefined;
      });
  }

  /**
   * Waits for the running pass, then scores whatever is left, by the rule of /v2/guard (inline
   * unless large), so a full worker queue cannot fail a close: before a close, or when the
   * backlog is too long.
   */
  async function catchUpModels(o: Open): Promise<void> {
    await o.modelPass;
    await modelPass(o, false);
  }

  function validateOpen(req: GuardStreamOpen): void {
    const deep = tooDeepJsonField(GuardStreamOpenSchema, req as never);
    if (deep) throw new ApiError("bad_request", `open.${deep}: free-form JSON nested deeper than ${maxJsonDepth} objects and arrays`);
    const result = validator.validate(GuardStreamOpenSchema, req);
    if (result.kind === "error") throw result.error;
    if (result.kind === "invalid") {
      const lines = result.violations.map((v) => `open.${pathToString(v.field)}: ${v.message}${v.ruleId ? ` [${v.ruleId}]` : ""}`);
      throw new ApiError("validation_failed", "validation failed: " + lines.join("; "));
    }
  }

  async function open(ctx: HandlerContext, req: GuardStreamOpen): Promise<Open> {
    if (req.messages.length > deps.maxMessages) {
      throw new ApiError("validation_failed", `validation failed: a stream may be opened with at most ${deps.maxMessages} messages`);
    }
    const org = await callerOrg(ctx, deps.orgs);
    const release = capacity.acquire(org._id);
    try {
      const resolved = await resolvePolicy(deps, org, req.projectId);
      const parts = partsOf(req.messages, []);
      const conversation = await screenParts(org._id, resolved, parts);
      const instructions = req.messages.filter((m) => m.role === "system" || m.role === "developer").map(contentText);
      const session = new StreamSession(
        {
          orgId: org._id,
          resolved,
          messages: req.messages,
          role: req.role || "assistant",
          location: locationOfRole[req.role],
          payload: req.payload,
          breakdown: req.breakdown,
          metadata: req.metadata ? JSON.stringify(req.metadata) : "{}",
          openedAt: new Date(),
          conversation,
          textModels: resolved.policy.detectors.some((d) => d.location === locationOfRole[req.role] && isTextModel(d.type)),
        },
        tuning,
      );
      const restorer = req.restoreVaultId === undefined ? undefined : await restorerOf(org._id, req.restoreVaultId);
      return { session, release, instructions, restorer };
    } catch (err) {
      release();
      throw err;
    }
  }

  async function restorerOf(orgId: string, vaultId: string): Promise<StreamRestorer> {
    if (!deps.sanitize) throw new ApiError("feature_disabled", "restoring placeholders is not available on this server");
    const map = await stepDeadline(deps.requestTimeoutMs, () => vaultMapping(deps.sanitize!, orgId, vaultId));
    return new StreamRestorer(map, deps.sanitize.maxRestoredChars);
  }

  /** The verdict with the text it released restored, when the stream restores (everything when `final`). */
  function restored(o: Open, verdict: Verdict, final = false): Verdict {
    if (!o.restorer) return verdict;
    let piece;
    try {
      piece = o.restorer.release(verdict.releasedOffset, final);
    } catch (err) {
      if (err instanceof RestoredTooLongError) throw new ApiError("payload_too_large", err.message);
      throw err;
    }
    return { ...verdict, restoredText: piece.text, restoredOffset: piece.offset };
  }

  async function delta(o: Open, text: string): Promise<Verdict> {
    const started = performance.now();
    try {
      return await judgeDelta(o, text);
    } finally {
      deps.metrics?.streamDelta.observe((performance.now() - started) / 1000);
    }
  }

  async function judgeDelta(o: Open, text: string): Promise<Verdict> {
    const { session } = o;
    const refused = session.admit(text);
    if (refused === "stopped") throw new ApiError("conflict", "the stream was stopped (flagged in enforce mode) and takes no more deltas; close it");
    if (refused === "finished") throw new ApiError("conflict", "the stream is closed");
    if (refused === "too_many_deltas") throw new ApiError("payload_too_large", `a stream may send at most ${tuning.maxDeltas} deltas`);
    if (refused === "too_long") throw new ApiError("payload_too_large", `a stream's text may be at most ${tuning.maxTextBytes} bytes (UTF-8), the request body limit`);
    const window = session.append(text);
    o.restorer?.append(text);
    if (text === "") return restored(o, session.deltaVerdict(window, noScreening));
    const screening = await screenParts(session.setup.orgId, session.setup.resolved, [partOf(o, window)], "exact", "here");
    // The text models trail by at most a bounded backlog: past it, this delta waits for them.
    if (session.modelBacklog > tuning.modelMaxBacklog) await catchUpModels(o);
    const verdict = restored(o, session.deltaVerdict(window, screening));
    scheduleModels(o);
    return verdict;
  }

  /** Logs the stream once, as /v2/guard logs a request: the conversation and the whole streamed text. */
  function finish(o: Open, requestUuid: string): Promise<void> {
    o.logged ??= writeLog(o, requestUuid).catch((err: unknown) => {
      o.logged = undefined;
      throw err;
    });
    return o.logged;
  }

  async function writeLog(o: Open, requestUuid: string): Promise<void> {
    const { session } = o;
    const { setup } = session;
    const messages = [...setup.messages, create(MessageSchema, { role: setup.role, content: session.text.whole() })];
    const log = logOf(requestUuid, setup.openedAt, setup.orgId, setup.resolved, session.flagged, session.screening(), messages, setup.metadata);
    await Promise.all([deps.logs.append(log), deps.rollups.record(setup.orgId, setup.resolved.project._id, setup.openedAt, log.fired)]);
    for (const type of log.fired) deps.metrics?.detections.inc({ detector_type: type });
  }

  /** The final verdict, once logged; a failed log write leaves the stream open to a retried close. */
  async function closeStream(o: Open, requestUuid: string): Promise<Verdict> {
    o.session.finished = true;
    await catchUpModels(o);
    // A stopped stream keeps its unreleased text back from the restored answer too.
    const verdict = restored(o, o.session.closeVerdict(requestUuid), !o.session.stopped);
    await finish(o, requestUuid);
    o.release();
    return verdict;
  }

  /** A stream that ended without a close (disconnect, error, expiry, shutdown): logged as it stands, once. */
  async function abandon(o: Open, requestUuid: string): Promise<void> {
    try {
      if (o.logged) await o.logged;
      else {
        o.session.finished = true;
        await catchUpModels(o).catch(() => {});
        o.session.closeVerdict(requestUuid);
        await stepDeadline(deps.requestTimeoutMs, () => finish(o, requestUuid));
      }
    } catch (err) {
      deps.log?.warn({ request_id: requestUuid, err: String(err) }, "abandoned stream not logged");
    } finally {
      o.release();
    }
  }

  function idle<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError("timeout", `no message for ${idleS} s: the stream expired`)), deps.limits.idleMs);
    });
    return Promise.race([p, expired]).finally(() => clearTimeout(timer));
  }

  function restSession(ctx: HandlerContext, id: string): RestSession {
    const orgId = ctx.values.get(principalKey)?.orgId;
    const s = rest.get(id);
    // Another organization's session is as absent as one that never existed.
    if (!s || s.orgId !== orgId) {
      throw new ApiError(
        "not_found",
        `no open stream session '${id}': it was closed, expired after ${idleS} s without a call, or was lost in a server restart; open a new one`,
      );
    }
    return s;
  }

  function expire(s: RestSession): void {
    if (rest.get(s.id) !== s) return;
    rest.delete(s.id);
    void s.chain.finally(() => abandon(s.open, uuidv7()));
  }

  function touch(s: RestSession): void {
    clearTimeout(s.timer);
    s.timer = setTimeout(() => expire(s), deps.limits.idleMs);
    s.timer.unref();
  }

  /** Runs `fn` after the session's earlier calls; the session's idle clock restarts when it ends. */
  function serial<T>(s: RestSession, fn: () => Promise<T>): Promise<T> {
    clearTimeout(s.timer);
    const run = s.chain.then(fn, fn);
    s.chain = run
      .catch(() => {})
      .finally(() => {
        if (rest.get(s.id) === s) touch(s);
      });
    return run;
  }

  const handlers: StreamHandlers = {
    async *guardStream(requests, ctx) {
      const requestId = requestIdOf(ctx) ?? uuidv7();
      let o: Open | undefined;
      const onAbort = () => void (o && abandon(o, requestId));
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      const it = requests[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await idle(it.next()).catch((err: unknown) => {
            // Decoding the client's messages (envelopes, compression, protobuf) failed: the client's error, as on unary calls.
            throw err instanceof ConnectError ? frameworkError(err, requestId) : err;
          });
          // The client half-closed without a close message: the same as one.
          if (next.done) {
            if (o) yield await stepDeadline(deps.requestTimeoutMs, () => closeStream(o!, requestId));
            return;
          }
          const m: GuardStreamRequest = next.value;
          if (m.kind.case === "open") {
            if (o) throw new ApiError("bad_request", "the stream is open already: send deltas, then close");
            validateOpen(m.kind.value);
            const req = m.kind.value;
            o = await stepDeadline(deps.requestTimeoutMs, () => open(ctx, req));
            yield restored(o, o.session.openVerdict());
          } else if (m.kind.case === "delta" || m.kind.case === "close") {
            if (!o) throw new ApiError("bad_request", "the first message of a stream must be `open`");
            if (m.kind.case === "close") {
              yield await stepDeadline(deps.requestTimeoutMs, () => closeStream(o!, requestId));
              return;
            }
            yield await delta(o, m.kind.value.text);
          } else {
            throw new ApiError("validation_failed", "validation failed: a stream message sets one of open, delta or close");
          }
        }
      } catch (err) {
        throw toConnectError(err, requestId);
      } finally {
        ctx.signal.removeEventListener("abort", onAbort);
        if (o) await abandon(o, requestId);
      }
    },

    async openGuardStream(req, ctx) {
      const o = await open(ctx, req);
      const id = `gst_${randomBytes(24).toString("base64url")}`;
      const s: RestSession = { id, orgId: o.session.setup.orgId, open: o, timer: setTimeout(() => {}, 0), chain: Promise.resolve() };
      rest.set(id, s);
      touch(s);
      return { ...restored(o, o.session.openVerdict()), streamId: id };
    },

    async appendGuardStream(req, ctx) {
      const s = restSession(ctx, req.streamId);
      return serial(s, async () => {
        const received = s.open.session.text.codePoints;
        if (req.offset !== undefined && req.offset !== received) {
          throw new ApiError("conflict", `the delta starts at offset ${req.offset} but the stream has received ${received} code points`);
        }
        return { ...(await delta(s.open, req.text)), streamId: s.id };
      });
    },

    async closeGuardStream(req, ctx) {
      const s = restSession(ctx, req.streamId);
      return serial(s, async () => {
        const verdict = await closeStream(s.open, requestIdOf(ctx) ?? uuidv7());
        rest.delete(s.id);
        return { ...verdict, streamId: s.id };
      });
    },
  };

  return {
    handlers,
    capacity,
    sessions: () => rest.size,
    async close() {
      const open = [...rest.values()];
      rest.clear();
      for (const s of open) clearTimeout(s.timer);
      await Promise.all(open.map((s) => s.chain.finally(() => abandon(s.open, uuidv7()))));
    },
  };
}
