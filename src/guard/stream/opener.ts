// Opening a stream (docs/streaming.md), GuardStream's or a REST session's:
// the caller's place among the open streams, the policy, the conversation
// screened once, and the vault entry when the stream restores.
import type { HandlerContext } from "@connectrpc/connect";
import type { GuardStreamOpen } from "../../../gen/parapet/v1/guard_pb.js";
import { principalKey } from "../../api/context.js";
import { validationFailed } from "../../api/errors.js";
import { callerOrg } from "../../api/tenant.js";
import { vaultMapping, type SanitizeDeps } from "../../sanitize/service.js";
import { StreamRestorer } from "../../sanitize/stream-restorer.js";
import { contentText, partsOf } from "../../screening/parts.js";
import type { Location } from "../../screening/vocabulary.js";
import type { GuardDeps } from "../deps.js";
import { resolvePolicy } from "../resolve.js";
import { StreamCapacity } from "./capacity.js";
import { stepDeadline } from "./deadline.js";
import { streamTuning } from "./limits.js";
import { OpenStream, type StreamContext } from "./open-stream.js";
import { StreamScreener } from "./screener.js";
import { isTextModel, StreamSession } from "./session.js";

const locationOfRole: Record<string, Location> = { "": "assistant::content", assistant: "assistant::content", user: "user::content", tool: "tool::content" };

export class StreamOpener {
  readonly capacity: StreamCapacity;
  private readonly context: StreamContext;
  private readonly sanitize: SanitizeDeps;

  constructor(private readonly deps: GuardDeps) {
    const { limits } = deps;
    this.capacity = new StreamCapacity(limits.maxPerOrg, limits.maxTotal, Math.max(1, Math.ceil(limits.idleMs / 1000)));
    this.context = {
      screener: new StreamScreener(deps, deps.requestTimeoutMs),
      tuning: { ...streamTuning, maxDeltas: limits.maxDeltas, maxTextBytes: deps.maxBodyBytes },
      deps,
    };
    this.sanitize = { ...deps.sanitize, orgs: deps.orgs };
  }

  /** Opens a stream for the caller; its verdict is the stream's `openVerdict()`. */
  async open(ctx: HandlerContext, req: GuardStreamOpen): Promise<OpenStream> {
    const { deps } = this;
    if (req.messages.length > deps.maxMessages) {
      throw validationFailed([{ field: "messages", message: `a stream may be opened with at most ${deps.maxMessages} messages`, rule: "" }]);
    }
    const org = await callerOrg(ctx, deps.orgs);
    const release = this.capacity.acquire(org._id);
    try {
      const resolved = await resolvePolicy(deps, org, req.projectId);
      const parts = partsOf(req.messages, []);
      const conversation = await this.context.screener.screen(org._id, resolved, parts);
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
          keyId: ctx.values.get(principalKey)?.keyId,
          openedAt: new Date(),
          conversation,
          textModels: resolved.policy.detectors.some((d) => d.location === locationOfRole[req.role] && isTextModel(d.type)),
        },
        this.context.tuning,
      );
      const restorer = req.restoreVaultId === undefined ? undefined : await this.restorerOf(org._id, req.restoreVaultId);
      return new OpenStream(this.context, session, release, instructions, restorer);
    } catch (err) {
      release();
      throw err;
    }
  }

  private async restorerOf(orgId: string, vaultId: string): Promise<StreamRestorer> {
    const map = await stepDeadline(this.deps.requestTimeoutMs, () => vaultMapping(this.sanitize, orgId, vaultId));
    return new StreamRestorer(map, this.sanitize.maxRestoredChars);
  }
}
