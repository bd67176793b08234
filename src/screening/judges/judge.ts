// One configured judge: a call goes through the cache, joins an identical call
// in flight, waits for a concurrency slot, passes the circuit breaker and goes
// out within the smaller of the per-call timeout and the request's judge budget
// (docs/judges.md#faults). Whatever happens, `verdict` settles by the budget's
// end: with the verdict, or with a JudgeSkip that says why.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { CircuitBreaker } from "./breaker.js";
import { ChatCompletions, JudgeCallError, type CallFailure } from "./chat-completions.js";
import { MalformedAnswer, type CallSpec, type CallVerdict, type JudgeFormat } from "./format.js";
import { judgeFormats } from "./formats/index.js";
import { Limiter, SlotUnavailable } from "./limiter.js";
import type { JudgeSettings } from "./settings.js";

/** Why a judgement was not made; the metrics' skip `reason` label. */
export type SkipReason = "breaker_open" | "deadline" | "concurrency" | "error";

export class JudgeSkip extends Error {
  constructor(
    readonly reason: SkipReason,
    message: string,
  ) {
    super(message);
    this.name = "JudgeSkip";
  }
}

/** What the judge reports to the service's metrics and log (screening/ imports neither). */
export interface JudgeObserver {
  /** A call that went out answered (`ok`) or failed, after `seconds`. */
  call(seconds: number, outcome: "ok" | CallFailure): void;
  skip(reason: SkipReason): void;
  cacheHit(): void;
  /** A failed call's cause, the breaker opening or closing: one line for the service log, never screened content. */
  log(level: "warn" | "info" | "debug", fields: Record<string, unknown>, message: string): void;
}

const silent: JudgeObserver = { call() {}, skip() {}, cacheHit() {}, log() {} };

/** A call with less time than this left is not sent: it could not answer anyway. */
const MIN_CALL_MS = 5;
/** Alternatives asked per answer token: enough to find both verdict words (OpenAI's limit is 20). */
const TOP_LOGPROBS = 5;
/** Verdicts kept, and for how long: the same text in the next turn of a conversation is judged once. */
const CACHE_ENTRIES = 10_000;
const CACHE_TTL_MS = 10 * 60_000;

export class Judge {
  readonly format: JudgeFormat;
  readonly breaker: CircuitBreaker;
  readonly limiter: Limiter;
  private readonly client: ChatCompletions;
  private readonly cache = new LRUCache<string, CallVerdict>({ max: CACHE_ENTRIES, ttl: CACHE_TTL_MS });
  private readonly inFlight = new Map<string, Promise<CallVerdict>>();
  /** Cleared for good when the server refuses the logprobs fields (levels then come from the fixed level). */
  private logprobs = true;

  constructor(
    readonly settings: JudgeSettings,
    private readonly observer: JudgeObserver = silent,
  ) {
    this.format = judgeFormats[settings.format];
    this.breaker = new CircuitBreaker(settings.breakerFailures, settings.breakerCooldownMs);
    this.limiter = new Limiter(settings.concurrency);
    this.client = new ChatCompletions(settings.url, settings.apiKey, settings.concurrency);
  }

  /** The verdict of one call, settled by `deadline` (epoch ms): the verdict, or a JudgeSkip. */
  async verdict(spec: CallSpec, deadline: number): Promise<CallVerdict> {
    const key = createHash("sha256")
      .update(JSON.stringify([this.settings.model, spec]))
      .digest("base64");
    const cached = this.cache.get(key);
    if (cached) {
      this.observer.cacheHit();
      return cached;
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const call = this.call(spec, deadline).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, call);
    const verdict = await call;
    this.cache.set(key, verdict);
    return verdict;
  }

  private async call(spec: CallSpec, deadline: number): Promise<CallVerdict> {
    if (deadline - Date.now() < MIN_CALL_MS) throw this.skipped("deadline", "no time left in the request's deadline");
    let release: () => void;
    try {
      release = await this.limiter.acquire(deadline);
    } catch (err) {
      if (err instanceof SlotUnavailable) throw this.skipped("concurrency", err.message);
      throw err;
    }
    try {
      if (deadline - Date.now() < MIN_CALL_MS) throw this.skipped("deadline", "no time left in the request's deadline");
      if (!this.breaker.allow()) throw this.skipped("breaker_open", "the judge's circuit is open after repeated failures");
      return await this.send(spec, deadline);
    } finally {
      release();
    }
  }

  /** One call through the breaker: a server that refuses logprobs is asked again without them, once for good. */
  private async send(spec: CallSpec, deadline: number): Promise<CallVerdict> {
    const started = performance.now();
    try {
      let answer;
      try {
        answer = await this.post(spec, deadline);
      } catch (err) {
        if (!(err instanceof JudgeCallError && err.reason === "status" && err.status === 400 && this.logprobs)) throw err;
        this.logprobs = false;
        this.observer.log(
          "info",
          { status: 400, detail: err.message },
          "the judge refused a request with logprobs: asking without them from now on (levels use the fixed level)",
        );
        answer = await this.post(spec, deadline);
      }
      const verdict = this.format.parse(answer, spec);
      this.observer.call((performance.now() - started) / 1000, "ok");
      if (this.breaker.success()) this.observer.log("info", {}, "judge circuit closed: the judge answers again");
      return verdict;
    } catch (err) {
      const failure = err instanceof JudgeCallError ? err : err instanceof MalformedAnswer ? new JudgeCallError("malformed", err.message) : undefined;
      // The request's own deadline cutting a call short says nothing about the judge; nor does a fault of Parapet's.
      if (!failure || failure.reason === "deadline") this.breaker.abandon();
      if (!failure) throw err;
      this.observer.call((performance.now() - started) / 1000, failure.reason);
      const opened = failure.reason !== "deadline" && this.breaker.failure();
      this.observer.log("warn", { reason: failure.reason, detail: failure.message }, "judge call failed");
      if (err instanceof MalformedAnswer) this.observer.log("debug", { answer_head: err.head }, "the judge's unreadable answer");
      if (opened)
        this.observer.log("warn", { cooldown_ms: this.settings.breakerCooldownMs }, "judge circuit opened: requests get the fail mode without calling the judge");
      throw this.skipped("error", `${failure.reason}: ${failure.message}`);
    }
  }

  private post(spec: CallSpec, deadline: number) {
    const controller = new AbortController();
    const { timeoutMs } = this.settings;
    const byDeadline = deadline - Date.now() < timeoutMs;
    const timer = setTimeout(
      () =>
        controller.abort(
          byDeadline
            ? new JudgeCallError("deadline", "the request's deadline came before the judge answered")
            : new JudgeCallError("timeout", `no answer within ${timeoutMs} ms (PARAPET_JUDGE_TIMEOUT_MS)`),
        ),
      Math.max(0, Math.min(timeoutMs, deadline - Date.now())),
    );
    const body: Record<string, unknown> = { model: this.settings.model, messages: spec.messages, temperature: 0, stream: false };
    if (spec.maxTokens !== undefined) body.max_tokens = spec.maxTokens;
    if (spec.templateKwargs) body.chat_template_kwargs = spec.templateKwargs;
    if (this.logprobs) Object.assign(body, { logprobs: true, top_logprobs: TOP_LOGPROBS });
    return this.client.post(body, controller.signal).finally(() => clearTimeout(timer));
  }

  private skipped(reason: SkipReason, message: string): JudgeSkip {
    this.observer.skip(reason);
    return new JudgeSkip(reason, message);
  }

  close(): void {
    this.client.close();
  }
}
