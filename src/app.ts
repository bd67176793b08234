// Composition root: storage, repositories, interceptors, protocols, listener.
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { errorInterceptor } from "./api/interceptors/errors.js";
import { authInterceptor } from "./api/interceptors/auth.js";
import { validationInterceptor } from "./api/interceptors/validation.js";
import { apiRoutes, apiServices, serverRoutes, type ServiceImpls } from "./api/services.js";
import {
  CreatePolicyRequestSchema,
  UpdatePolicyRequestSchema,
  type CreatePolicyRequest,
  type UpdatePolicyRequest,
} from "../gen/parapet/v1/policies_pb.js";
import {
  CreateCustomGuardrailRequestSchema,
  UpdateCustomGuardrailRequestSchema,
  type CreateCustomGuardrailRequest,
  type UpdateCustomGuardrailRequest,
} from "../gen/parapet/v1/custom_guardrails_pb.js";
import { CustomGuardrails } from "./custom-guardrails/repository.js";
import { customGuardrailService, guardrailViolations } from "./custom-guardrails/service.js";
import { AnalyticsRollups } from "./analytics/rollups.js";
import { analyticsService } from "./analytics/service.js";
import { GuardLogs } from "./logs/repository.js";
import { logService } from "./logs/service.js";
import { detectorRegistry, MODEL_VERSION } from "./screening/registry.js";
import { guardService } from "./screening/service.js";
import { Policies } from "./policies/repository.js";
import { policyService } from "./policies/service.js";
import { policyRequestViolations } from "./policies/validation.js";
import { Projects } from "./projects/repository.js";
import { projectService } from "./projects/service.js";
import { ApiKeys } from "./auth/api-keys.js";
import { bootstrap } from "./auth/bootstrap.js";
import { Organizations } from "./auth/organizations.js";
import type { Config } from "./config.js";
import { createLogger, type Logger } from "./observability/logger.js";
import { createHttpHandler } from "./server/http-handler.js";
import { listen, type Listener } from "./server/listener.js";
import type { ProbeState } from "./server/probes.js";
import { createRestHandler, sendError } from "./server/rest/handler.js";
import type { Database } from "./storage/collection.js";
import { openDatabase } from "./storage/open.js";

export interface App {
  port: number;
  db: Database;
  /** Repositories, shared with tests and tools running in the same process. */
  repos: { orgs: Organizations; keys: ApiKeys; policies: Policies; projects: Projects; guardrails: CustomGuardrails; logs: GuardLogs; rollups: AnalyticsRollups };
  log: Logger;
  /** Graceful stop: readiness false, stop accepting, finish in-flight requests, flush storage. */
  close(): Promise<void>;
}

export async function startApp(config: Config, log: Logger = createLogger(config.logLevel)): Promise<App> {
  const db = await openDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir });
  const probes: ProbeState = { started: false, shuttingDown: false, ping: () => db.ping() };
  let listener: Listener | undefined;
  let repos: App["repos"];
  try {
    const orgs = await Organizations.open(db);
    const keys = await ApiKeys.open(db);
    await bootstrap(orgs, keys, { dataDir: config.dataDir, platformKey: config.bootstrapPlatformKey, screeningKey: config.bootstrapScreeningKey }, log);

    const policies = await Policies.open(db);
    const projects = await Projects.open(db);
    const guardrails = await CustomGuardrails.open(db);
    const retentionSeconds = config.retentionDays * 86_400;
    const logs = await GuardLogs.open(db, retentionSeconds);
    const rollups = await AnalyticsRollups.open(db, retentionSeconds);
    repos = { orgs, keys, policies, projects, guardrails, logs, rollups };
    const guardrailLocations = async (orgId: string, ids: string[]) =>
      new Map((await guardrails.many(orgId, ids)).map((g) => [g._id, g.locations]));
    const impls: ServiceImpls = {
      policies: policyService({ orgs, policies, projects, guardrailLocations }),
      projects: projectService({ orgs, policies, projects }),
      customGuardrails: customGuardrailService({ orgs, guardrails }),
      guard: guardService({ orgs, policies, projects, guardrails, logs, rollups, registry: detectorRegistry, modelVersion: MODEL_VERSION }),
      logs: logService({ orgs, logs }),
      analytics: analyticsService({ orgs, rollups }),
    };
    const interceptors = [
      errorInterceptor(log),
      authInterceptor(keys),
      validationInterceptor({
        [CreatePolicyRequestSchema.typeName]: (r: CreatePolicyRequest) => policyRequestViolations(r.policy),
        [UpdatePolicyRequestSchema.typeName]: (r: UpdatePolicyRequest) => policyRequestViolations(r.policy),
        [CreateCustomGuardrailRequestSchema.typeName]: (r: CreateCustomGuardrailRequest) => guardrailViolations(r.customGuardrail),
        [UpdateCustomGuardrailRequestSchema.typeName]: (r: UpdateCustomGuardrailRequest) => guardrailViolations(r.customGuardrail),
      }),
    ];
    const connect = connectNodeAdapter({
      routes: serverRoutes(impls),
      interceptors,
      readMaxBytes: config.maxBodyBytes,
      fallback: (req, res) => sendError(res, "route_not_found", `no route for ${(req.url ?? "/").split("?")[0]}`, String(req.headers["x-request-id"] ?? "")),
    });
    const rest = createRestHandler({ services: apiServices, routes: apiRoutes(impls), interceptors, maxBodyBytes: config.maxBodyBytes });
    listener = await listen({
      host: config.host,
      port: config.port,
      tls: config.tls,
      handler: createHttpHandler({ rest, connect, probes, log }),
    });
    probes.started = true;
    log.info({ port: listener.port, host: config.host, storage: db.engine, tls: Boolean(config.tls) }, "parapet listening");
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }

  const started = listener;
  return {
    port: started.port,
    db,
    repos,
    log,
    async close() {
      probes.shuttingDown = true;
      await started.close();
      await db.close();
    },
  };
}
