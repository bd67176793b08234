// Screening a request's parts the way every screening call does
// (docs/decisions.md#worker-threads): small work inline on this thread, large
// work on a screening worker, and the engine's stops answered as the
// contract's errors. /v2/guard, /v2/guard/results and GuardStream share it.
//
// Small work goes to a worker too while this thread has other requests to
// serve and a worker has room: under load both cores screen, while a lone
// request keeps the lower latency of screening inline.
import { ApiError } from "../api/errors.js";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import type { Metrics } from "../observability/metrics.js";
import { DeadlineExceededError, GuardrailLimitError, screen, type Screening, type ScreeningPolicy } from "../screening/engine.js";
import type { JudgePrepass } from "../screening/judges/prepass.js";
import { failModeOf } from "../screening/judges/settings.js";
import type { Part } from "../screening/parts.js";
import { ModelDeadlineError, ModelUnavailableError } from "../screening/models/host.js";
import { detectFnOf, type PrepareDetectors } from "../screening/registry.js";
import { GuardrailCache } from "./guardrail-cache.js";
import type { ScreeningPool } from "./worker-pool.js";

export interface ScreenerDeps {
  /** Worker threads for requests of at least `workerThresholdChars` characters. */
  pool?: ScreeningPool;
  workerThresholdChars: number;
  /** Scores the parts with the configured models before the synchronous engine runs. */
  prepare?: PrepareDetectors;
  /**
   * What screening a character costs this thread, relative to the built-in detectors alone:
   * configured models tokenize the text here too (docs/decisions.md#model-runtime), so a request
   * goes to a worker at a proportionally smaller size.
   */
  textCost?: () => number;
  /** The LLM judge's pre-pass (docs/judges.md#wiring), when a judge is configured. */
  judges?: JudgePrepass;
  /** True while this thread has requests other than the one asking (the HTTP handler's count). */
  busy?: () => boolean;
  metrics?: Metrics;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * Where a screening call runs: "auto" by size and load; "worker" whatever the size (a stream's
 * text models, run beside its verdicts); "here" inline unless large, never shared (a stream
 * delta's exact detectors: cheap, and their latency is the stream's, not worth a wait behind a
 * worker's jobs).
 */
export type Placement = "auto" | "worker" | "here";

/** A screening the LLM judge takes part in: the project's metadata holds its fail mode. */
export interface Judging {
  projectMetadata: Readonly<Record<string, string>>;
}

export class RequestScreener {
  private readonly cache = new GuardrailCache();

  constructor(private readonly deps: ScreenerDeps) {}

  /** `judging`: the judge takes part (a request or a stream's opening, not a stream's deltas). */
  async screen(
    policy: ScreeningPolicy,
    guardrails: StoredGuardrail[],
    parts: Part[],
    org: string,
    deadline: number,
    place: Placement = "auto",
    judging?: Judging,
  ): Promise<Screening> {
    const notes = judging ? await this.judge(policy, guardrails, parts, deadline, judging) : undefined;
    const screening = await this.screenParts(policy, guardrails, parts, org, deadline, place);
    if (notes?.length) screening.notes = notes;
    return screening;
  }

  private async screenParts(policy: ScreeningPolicy, guardrails: StoredGuardrail[], parts: Part[], org: string, deadline: number, place: Placement): Promise<Screening> {
    let chars = 0;
    for (const p of parts) chars += p.text.length;
    try {
      const { pool, metrics } = this.deps;
      const large = place === "worker" || chars * (this.deps.textCost?.() ?? 1) >= this.deps.workerThresholdChars;
      if (pool && (large || (place === "auto" && this.deps.busy?.() && pool.hasRoom()))) {
        metrics?.screenings.inc({ thread: "worker" });
        return await pool.run(policy, guardrails, parts, org, deadline, !large);
      }
      metrics?.screenings.inc({ thread: "inline" });
      await this.deps.prepare?.(parts, policy.detectors, deadline);
      return screen(policy, this.cache.active(guardrails), parts, detectFnOf, { deadline });
    } catch (err) {
      throw apiErrorOf(err);
    }
  }

  /**
   * The judge's pre-pass, leaving its judgements on the parts; its dev_info notes. It settles within the
   * request's deadline and never throws: a judge that cannot answer gets the project's fail mode.
   */
  private async judge(policy: ScreeningPolicy, guardrails: StoredGuardrail[], parts: Part[], deadline: number, judging: Judging): Promise<string[]> {
    const { judges } = this.deps;
    if (!judges) {
      return guardrails
        .filter((g) => g.judge_policy)
        .map((g) => `custom guardrail ${g._id}: written in words, which needs a gpt-oss-safeguard judge (PARAPET_JUDGE_URL); not applied`);
    }
    try {
      const failMode = failModeOf(judging.projectMetadata, judges.failMode);
      return await judges.run({ detectors: policy.detectors, guardrails, parts, deadline, failMode });
    } catch (err) {
      this.deps.log?.warn({ err: err instanceof Error ? err.message : String(err) }, "judge pre-pass failed");
      return [`judge: not applied (${err instanceof Error ? err.message : String(err)})`];
    }
  }
}

/**
 * The engine's stops as the contract's errors: past the deadline `timeout`, too many custom-guardrail matches
 * `payload_too_large`, the model thread down (crashed, restarting) `unavailable` with Retry-After.
 */
export function apiErrorOf(err: unknown, timeoutMessage = "the request did not complete within its deadline"): unknown {
  if (err instanceof DeadlineExceededError || err instanceof ModelDeadlineError) return new ApiError("timeout", timeoutMessage);
  if (err instanceof ModelUnavailableError) return new ApiError("unavailable", err.message, { "retry-after": String(err.retryAfterS) });
  if (err instanceof GuardrailLimitError) return new ApiError("payload_too_large", err.message);
  return err;
}
