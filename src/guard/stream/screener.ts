// Screening for streams, through the screener every request uses: all of the
// policy's detectors (the conversation at open), the exact ones (a delta's
// verdict) or the text models (their passes beside the verdicts).
import type { Screening } from "../../screening/engine.js";
import type { Part } from "../../screening/parts.js";
import { RequestScreener, type Placement, type ScreenerDeps } from "../request-screener.js";
import type { Resolved } from "../resolve.js";
import { screeningPolicyOf } from "../screening-policy.js";
import { isTextModel } from "./session.js";

/** Which of the policy's detectors a screening runs. */
type DetectorShare = "all" | "exact" | "models";

export class StreamScreener {
  private readonly screener: RequestScreener;

  constructor(
    deps: ScreenerDeps,
    /** Each screening's deadline, from when it starts. */
    private readonly timeoutMs: number,
  ) {
    this.screener = new RequestScreener(deps);
  }

  /**
   * Screens `parts` by the policy's detectors that `which` keeps. Custom guardrails are exact
   * matchers: they run with the exact detectors. Small work inline, large work on a screening
   * worker, as /v2/guard; `place` as RequestScreener.screen's.
   */
  async screen(orgId: string, resolved: Resolved, parts: Part[], which: DetectorShare = "all", place: Placement = "auto"): Promise<Screening> {
    const detectors = which === "all" ? resolved.policy.detectors : resolved.policy.detectors.filter((d) => isTextModel(d.type) === (which === "models"));
    const guardrails = which === "models" ? [] : resolved.guardrails;
    // The judge reads the conversation a stream opens with; a judge call per delta would not keep up with a stream.
    const judging = which === "all" ? { projectMetadata: resolved.project.project_metadata } : undefined;
    return this.screener.screen(screeningPolicyOf({ ...resolved.policy, detectors }), guardrails, parts, orgId, Date.now() + this.timeoutMs, place, judging);
  }
}
