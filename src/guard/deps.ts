// What GuardService needs, its unary calls (service.ts) and its streams
// (stream/service.ts) alike: app.ts builds it once for both.
import type { AnalyticsRollups } from "../analytics/repository.js";
import type { Organizations } from "../auth/organizations-repository.js";
import type { CustomGuardrails } from "../custom-guardrails/repository.js";
import type { GuardLogs } from "../logs/repository.js";
import type { Policies } from "../policies/repository.js";
import type { AccessLog } from "../observability/access-log.js";
import type { Projects } from "../projects/repository.js";
import type { SanitizeDeps } from "../sanitize/service.js";
import type { BuildInfo } from "./build-info.js";
import type { ScreenerDeps } from "./request-screener.js";
import type { StreamLimits } from "./stream/limits.js";

export interface GuardDeps extends ScreenerDeps {
  orgs: Organizations;
  policies: Policies;
  projects: Projects;
  guardrails: CustomGuardrails;
  logs: GuardLogs;
  rollups: AnalyticsRollups;
  modelVersion: () => string;
  /** Most messages, and most tool definitions, one request may carry; also the most a stream opens with. */
  maxMessages: number;
  /** The request body limit: also the most streamed text (UTF-8 bytes) one stream may send. */
  maxBodyBytes: number;
  /** The request deadline: screening stops once it has passed (docs/decisions.md#rate-limits-and-deadlines). */
  requestTimeoutMs: number;
  /** dev_info's revision and time when the configuration sets them. */
  build?: Partial<Pick<BuildInfo, "gitRevision" | "gitTimestamp">>;
  /** The vault and its settings, for `sanitize`, RestoreText and streams that restore (docs/sanitize.md). */
  sanitize: Omit<SanitizeDeps, "orgs">;
  /** Open streams, their deltas and idle expiry (docs/streaming.md#limits). */
  limits: StreamLimits;
  log?: { warn(obj: object, msg: string): void };
  /** The access log lines of requests in flight, which name their decision. */
  access?: AccessLog;
}
