// GuardStream as REST calls (docs/streaming.md#rest-sessions): open, append
// and close, each on a session kept between calls.
import type { ServiceImpl } from "@connectrpc/connect";
import { v7 as uuidv7 } from "uuid";
import type { GuardService } from "../../../gen/parapet/v1/guard_pb.js";
import { principalKey, requestIdOf } from "../../api/context.js";
import type { StreamOpener } from "./opener.js";
import type { RestSessions } from "./rest-sessions.js";

export function restStreamHandlers(
  opener: StreamOpener,
  sessions: RestSessions,
): Pick<ServiceImpl<typeof GuardService>, "openGuardStream" | "appendGuardStream" | "closeGuardStream"> {
  return {
    async openGuardStream(req, ctx) {
      const stream = await opener.open(ctx, req);
      const streamId = sessions.add(stream);
      return { ...stream.openVerdict(), streamId };
    },

    async appendGuardStream(req, ctx) {
      const orgId = ctx.values.get(principalKey)?.orgId;
      return sessions.run(req.streamId, orgId, async (stream) => ({ ...(await stream.delta(req.text, req.offset)), streamId: req.streamId }));
    },

    async closeGuardStream(req, ctx) {
      const orgId = ctx.values.get(principalKey)?.orgId;
      return sessions.end(req.streamId, orgId, async (stream) => ({ ...(await stream.close(requestIdOf(ctx) ?? uuidv7())), streamId: req.streamId }));
    },
  };
}
