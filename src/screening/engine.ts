// The screening engine: applies a policy to the parts of a request
// (docs/decisions.md). Detectors run independently on normalized text; the
// engine owns thresholds, override precedence (allow > deny > detectors) and
// span mapping. It does no I/O: callers load the policy and guardrails first.
import { nothing, type DetectFn, type Detection, type ScreeningContext } from "./detector.js";
import { judgedDetection, judgedGuardrail } from "./judges/combine.js";
import { normalizeText, type NormalizedText } from "./normalize.js";
import { instructionsOf, type Part } from "./parts.js";
import { GUARDRAIL_LIMITS, MAX_SPANS_PER_OUTCOME } from "./limits.js";
import { findAll, type CompiledPattern } from "./patterns.js";
import { CUSTOM_GUARDRAIL, detectFnOf } from "./registry.js";
import { atOrOver, type DetectorSettings, type Level, type Location } from "./vocabulary.js";

export interface ScreeningPolicy {
  id: string;
  /** A Threshold once validated; policies are stored and carried as plain strings. */
  threshold: string;
  detectors: DetectorSettings[];
}

export interface ActiveGuardrail {
  id: string;
  patterns: CompiledPattern[];
  labels: string[];
  locations: readonly string[];
  /**
   * A built-in guardrail's own detector (the national identifiers,
   * docs/custom-guardrails.md#built-in-guardrails): its spans carry levels, and
   * it matches at or over the policy threshold like a detector.
   */
  detect?: (text: string) => Detection;
}

/** Finds the function of a detector type; the registry's by default, a test's own set otherwise. */
export type DetectorLookup = (type: string) => DetectFn | undefined;

export interface OutcomeSpan {
  /** Code points of the part's original text, half-open. */
  start: number;
  end: number;
  text: string;
  labels: string[];
}

export interface Outcome {
  detectorId: string;
  detectorType: string;
  location: Location;
  messageId?: number;
  toolId?: number;
  level: Level;
  spans: readonly OutcomeSpan[];
  /** The detector's reason for not judging the part, if it gave one (dev_info). */
  note?: string;
  /** The configured model that produced the detection (Detection.model), for the request log. */
  model?: string;
  customMatched: boolean;
  /** The detector's own verdict: at or over the policy threshold. */
  matched: boolean;
  /**
   * Counts toward the decision: matched and not overridden by override_allow on
   * the same part. override_allow itself never flags; it only un-flags.
   */
  flagged: boolean;
}

export interface Screening {
  outcomes: Outcome[];
  /** Any outcome flagged (the decision before the project's mode is applied). */
  detected: boolean;
  /** Request-level lines for dev_info (an LLM judge skipped, categories it flagged that no detector reports). */
  notes?: string[];
}

/** Detector ids by type, then location: one string per pair, not one per outcome. */
const detectorIds = new Map<string, Map<string, string>>();

function detectorIdOf(type: string, location: string): string {
  let byLocation = detectorIds.get(type);
  if (!byLocation) detectorIds.set(type, (byLocation = new Map<string, string>()));
  let id = byLocation.get(location);
  if (id === undefined) byLocation.set(location, (id = `${type}@${location}`));
  return id;
}

/** Shared by the outcomes without spans, most of them. */
const noSpans: readonly OutcomeSpan[] = Object.freeze([]);

/** Spans in original code points; spans a detector scored below the threshold are dropped. */
function mapSpans(n: NormalizedText, d: Detection, threshold: string, extraLabels: string[] = []): readonly OutcomeSpan[] {
  let out: OutcomeSpan[] | null = null;
  for (const s of d.spans) {
    if (s.level && !atOrOver(s.level, threshold)) continue;
    const { start, end } = n.toOriginal(s.start, s.end);
    (out ??= []).push({ start, end, text: n.sliceOriginal(start, end), labels: [...(s.labels ?? []), ...extraLabels] });
    if (out.length >= MAX_SPANS_PER_OUTCOME) break;
  }
  return out ?? noSpans;
}

/** The request's deadline passed while it was being screened: the rest of the work is dropped. */
export class DeadlineExceededError extends Error {
  constructor() {
    super("screening stopped at the request deadline");
    this.name = "DeadlineExceededError";
  }
}

/** The request would need more custom-guardrail work than one request may take. */
export class GuardrailLimitError extends Error {
  constructor(limit: number) {
    super(
      `the policy's custom guardrails would scan more than ${limit} characters on this request (patterns x characters at their locations); send less text per request`,
    );
    this.name = "GuardrailLimitError";
  }
}

export interface ScreenOptions {
  /**
   * Epoch milliseconds after which screening stops (DeadlineExceededError),
   * checked between detectors and guardrail patterns: a request past its
   * deadline stops consuming CPU instead of finishing for nobody.
   */
  deadline?: number;
}

function checkDeadline(deadline: number | undefined): void {
  if (deadline !== undefined && Date.now() > deadline) throw new DeadlineExceededError();
}

export function screen(
  policy: ScreeningPolicy,
  guardrails: ActiveGuardrail[],
  parts: Part[],
  lookup: DetectorLookup = detectFnOf,
  options: ScreenOptions = {},
): Screening {
  const { deadline } = options;
  const context: ScreeningContext = { parts, instructions: instructionsOf(parts) };
  const outcomes: Outcome[] = [];
  let scanned = 0;
  for (const part of parts) for (const g of guardrails) if (g.locations.includes(part.location)) scanned += g.patterns.length * part.text.length;
  // Refused before any work, so the answer does not depend on how fast the machine is.
  if (scanned > GUARDRAIL_LIMITS.scannedChars) throw new GuardrailLimitError(GUARDRAIL_LIMITS.scannedChars);
  let matchesLeft: number = GUARDRAIL_LIMITS.matches;
  for (const part of parts) {
    checkDeadline(deadline);
    const normalized = normalizeText(part.text);
    const first = outcomes.length;
    for (const config of policy.detectors) {
      if (config.location !== part.location) continue;
      checkDeadline(deadline);
      const detect = lookup(config.type);
      // A judged part's detectors meet the judge's levels there (docs/judges.md#combining).
      const detection = !detect
        ? nothing
        : part.judged
          ? judgedDetection(part.judged, config.type, normalized.text, () => detect(normalized.text, part, config, context))
          : detect(normalized.text, part, config, context);
      const outcome: Outcome = {
        detectorId: detectorIdOf(config.type, config.location),
        detectorType: config.type,
        location: part.location,
        messageId: part.messageId,
        toolId: part.toolId,
        level: detection.level,
        spans: mapSpans(normalized, detection, policy.threshold),
        note: detection.note,
        customMatched: false,
        // Deterministic detectors report l1_confident, which every threshold includes.
        matched: atOrOver(detection.level, policy.threshold),
        flagged: false,
      };
      // Set only when present: outcomes of the built-in detectors keep their shape.
      if (detection.model) outcome.model = detection.model;
      outcomes.push(outcome);
    }
    for (const g of guardrails) {
      if (!g.locations.includes(part.location)) continue;
      const spans: { start: number; end: number }[] = [];
      for (const p of g.patterns) {
        checkDeadline(deadline);
        const found = findAll(p, normalized.text, Math.max(1, Math.min(100, matchesLeft)));
        // Once the request's matches are spent, a match still flags; its span is not kept.
        if (matchesLeft > 0) {
          spans.push(...found.slice(0, matchesLeft));
          matchesLeft = Math.max(0, matchesLeft - found.length);
        } else if (found.length > 0 && spans.length === 0) spans.push(found[0]);
      }
      // A guardrail written in words matches where the judge found its policy violated.
      const inWords = spans.length || !part.judged ? undefined : judgedGuardrail(part.judged, g.id, normalized.text);
      const detection: Detection = g.detect ? g.detect(normalized.text) : (inWords ?? (spans.length ? { level: "l1_confident", spans } : nothing));
      const matched = g.detect ? atOrOver(detection.level, policy.threshold) : detection.spans.length > 0;
      outcomes.push({
        detectorId: g.id,
        detectorType: CUSTOM_GUARDRAIL,
        location: part.location,
        messageId: part.messageId,
        toolId: part.toolId,
        level: detection.level,
        spans: mapSpans(normalized, detection, policy.threshold, g.labels),
        customMatched: matched,
        matched,
        flagged: false,
      });
    }
    // override_allow wins over everything else on its part (allow > deny > detectors).
    let allowed = false;
    for (let i = first; i < outcomes.length; i++) allowed ||= outcomes[i].detectorType === "override_allow" && outcomes[i].matched;
    for (let i = first; i < outcomes.length; i++) {
      const o = outcomes[i];
      o.flagged = o.matched && !allowed && o.detectorType !== "override_allow";
    }
  }
  const detected = outcomes.some((o) => o.flagged);
  return { outcomes, detected };
}
