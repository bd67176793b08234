// Composition root: storage, repositories, services, interceptors, protocols, listener.
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { authInterceptor } from "./api/interceptors/auth.js";
import { errorInterceptor } from "./api/interceptors/errors.js";
import { timeoutInterceptor } from "./api/interceptors/timeout.js";
import { validationInterceptor } from "./api/interceptors/validation.js";
import { apiRoutes, apiServices, crossFieldRules, rpcPaths, serverRoutes, type ServiceImpls } from "./api/services.js";
import { analyticsService } from "./analytics/service.js";
import { bootstrap } from "./auth/bootstrap.js";
import { RateLimiter } from "./auth/rate-limit.js";
import type { Config } from "./config.js";
import { customGuardrailService } from "./custom-guardrails/service.js";
import { logService } from "./logs/service.js";
import { createLogger, type Logger } from "./observability/logger.js";
import { Metrics } from "./observability/metrics.js";
import { policyService } from "./policies/service.js";
import { projectService } from "./projects/service.js";
import { openRepositories, type Repositories } from "./repositories.js";
import { detectorRegistry, detectorsVersion, loadDetectors, prepareDetectors } from "./screening/registry.js";
import { guardService } from "./screening/service.js";
import { ScreeningPool } from "./screening/worker-pool.js";
import { createHttpHandler } from "./server/http-handler.js";
import { listen } from "./server/listener.js";
import type { ProbeState } from "./server/probes.js";
import { createRestHandler, sendError } from "./server/rest/handler.js";
import type { Database } from "./storage/collection.js";
import { openDatabase } from "./storage/open.js";

export interface App {
  port: number;
  db: Database;
  /** Repositories, shared with tests and tools running in the same process. */
  repos: Repositories;
  log: Logger;
  metrics: Metrics;
  /** Graceful stop: readiness false, stop accepting, finish in-flight requests, flush storage. */
  close(): Promise<void>;
}

function services(config: Config, repos: Repositories, metrics: Metrics, pool: ScreeningPool | undefined): ServiceImpls {
  const { orgs, policies, projects, guardrails, logs, rollups } = repos;
  const guardrailLocations = async (orgId: string, ids: string[]) => new Map((await guardrails.many(orgId, ids)).map((g) => [g._id, g.locations]));
  return {
    policies: policyService({ orgs, policies, projects, guardrailLocations }),
    projects: projectService({ orgs, policies, projects }),
    customGuardrails: customGuardrailService({ orgs, guardrails }),
    guard: guardService({ ...repos, registry: detectorRegistry, prepare: prepareDetectors, modelVersion: detectorsVersion, maxMessages: config.maxMessages, metrics, pool, workerThresholdChars: config.workerThresholdChars }),
    logs: logService({ orgs, logs }),
    analytics: analyticsService({ orgs, rollups }),
  };
}

export async function startApp(config: Config, log: Logger = createLogger(config.logLevel)): Promise<App> {
  const db = await openDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir, onWarning: (message, err) => log.warn({ err: String(err) }, message) });
  const probes: ProbeState = { started: false, shuttingDown: false, ping: () => db.ping() };
  // Released in reverse order of acquisition; storage last, after in-flight work.
  const closers: (() => unknown)[] = [() => db.close()];
  try {
    const repos = await openRepositories(db, config.retentionDays * 86_400);
    const modelsStarted = performance.now();
    await loadDetectors();
    log.info({ ms: Math.round(performance.now() - modelsStarted), model_version: detectorsVersion() }, "detectors loaded");
    await bootstrap(repos.orgs, repos.keys, { dataDir: config.dataDir, platformKey: config.bootstrapPlatformKey, screeningKey: config.bootstrapScreeningKey }, log);

    const metrics = new Metrics();
    const pool = config.screeningWorkers > 0 ? new ScreeningPool(config.screeningWorkers, metrics) : undefined;
    closers.push(() => pool?.close());
    await pool?.ready();
    const impls = services(config, repos, metrics, pool);
    const interceptors = [
      errorInterceptor(log),
      authInterceptor(repos.keys, new RateLimiter(config.rateLimitPerSecond, config.rateLimitBurst)),
      validationInterceptor(crossFieldRules),
      timeoutInterceptor(config.requestTimeoutMs),
    ];
    const connect = connectNodeAdapter({
      routes: serverRoutes(impls),
      interceptors,
      readMaxBytes: config.maxBodyBytes,
      fallback: (req, res) => sendError(res, "route_not_found", `no route for ${(req.url ?? "/").split("?")[0]}`, String(req.headers["x-request-id"] ?? "")),
    });
    const rest = createRestHandler({ services: apiServices, routes: apiRoutes(impls), interceptors, maxBodyBytes: config.maxBodyBytes });
    const listener = await listen({
      host: config.host,
      port: config.port,
      tls: config.tls,
      handler: createHttpHandler({ rest, connect, rpcPaths: rpcPaths(), probes, log, metrics: config.metrics ? metrics : undefined }),
    });
    probes.started = true;
    log.info({ port: listener.port, host: config.host, storage: db.engine, tls: Boolean(config.tls) }, "parapet listening");

    return {
      port: listener.port,
      db,
      repos,
      log,
      metrics,
      async close() {
        // Readiness goes false first so load balancers stop sending traffic.
        probes.shuttingDown = true;
        await listener.close();
        for (const close of [...closers].reverse()) await close();
      },
    };
  } catch (err) {
    for (const close of [...closers].reverse()) await Promise.resolve(close()).catch(() => {});
    throw err;
  }
}
