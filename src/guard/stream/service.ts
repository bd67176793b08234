// GuardStream and its REST sessions (docs/streaming.md): the handlers of both
// variants over one opener, so the open streams share one capacity. An open
// stream's lifecycle is open-stream.ts's; what a verdict says, session.ts's.
import type { ServiceImpl } from "@connectrpc/connect";
import type { GuardService } from "../../../gen/parapet/v1/guard_pb.js";
import type { GuardDeps } from "../deps.js";
import { guardStreamHandler } from "./bidi-handler.js";
import type { StreamCapacity } from "./capacity.js";
import { StreamOpener } from "./opener.js";
import { restStreamHandlers } from "./rest-handlers.js";
import { RestSessions } from "./rest-sessions.js";

export type GuardStreamMethod = "guardStream" | "openGuardStream" | "appendGuardStream" | "closeGuardStream";

export interface GuardStreams {
  handlers: Pick<ServiceImpl<typeof GuardService>, GuardStreamMethod>;
  capacity: StreamCapacity;
  /** REST sessions open now (tests). */
  sessions(): number;
  /** Shutdown: open REST sessions are logged as they stand and dropped. */
  close(): Promise<void>;
}

export function guardStreams(deps: GuardDeps): GuardStreams {
  const opener = new StreamOpener(deps);
  const sessions = new RestSessions(deps.limits.idleMs);
  return {
    handlers: { guardStream: guardStreamHandler(opener, deps), ...restStreamHandlers(opener, sessions) },
    capacity: opener.capacity,
    sessions: () => sessions.size,
    close: () => sessions.close(),
  };
}
