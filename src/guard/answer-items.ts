// The breakdown and payload items of a screening answer, the same for /v2/guard and a stream's
// verdicts (the close verdict equals /v2/guard's answer, docs/streaming.md).
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { BreakdownItemSchema, PayloadItemSchema } from "../../gen/parapet/v1/guard_pb.js";
import type { Outcome } from "../screening/engine.js";
import { reportsPayload } from "../screening/registry.js";

export type BreakdownInit = MessageInitShape<typeof BreakdownItemSchema>;
export type PayloadInit = MessageInitShape<typeof PayloadItemSchema>;

/** One outcome's breakdown item: detected when it flagged (override_allow: when it matched). */
export function breakdownItemOf(o: Outcome, ids: { projectId: string; policyId: string }, detected = o.flagged): BreakdownInit {
  return {
    ...ids,
    detectorId: o.detectorId,
    detectorType: o.detectorType,
    detected: detected || (o.detectorType === "override_allow" && o.matched),
    messageId: o.messageId ?? 0,
    toolId: o.location === "tool_definition::content" ? o.toolId : undefined,
  };
}

/** The matched spans of the detectors whose definitions report them. */
export function payloadOf(outcomes: readonly Outcome[]): PayloadInit[] {
  return outcomes
    .filter((o) => o.matched && reportsPayload(o.detectorType) && o.messageId !== undefined)
    .flatMap((o) => o.spans.map((s) => ({ start: s.start, end: s.end, text: s.text, detectorType: o.detectorType, labels: s.labels, messageId: o.messageId })));
}
