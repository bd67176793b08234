// Composition root: storage, repositories, services, interceptors, protocols, listener.
import {
  CreateCustomGuardrailRequestSchema,
  UpdateCustomGuardrailRequestSchema,
  type CreateCustomGuardrailRequest,
  type UpdateCustomGuardrailRequest,
} from "../gen/parapet/v1/custom_guardrails_pb.js";
import { CreateApiKeyRequestSchema, UpdateApiKeyRequestSchema, type CreateApiKeyRequest, type UpdateApiKeyRequest } from "../gen/parapet/v1/api_keys_pb.js";
import { CreatePolicyRequestSchema, UpdatePolicyRequestSchema, type CreatePolicyRequest, type UpdatePolicyRequest } from "../gen/parapet/v1/policies_pb.js";
import {
  LintPolicyDraftRequestSchema,
  PreviewPolicyImpactRequestSchema,
  type LintPolicyDraftRequest,
  type PreviewPolicyImpactRequest,
} from "../gen/parapet/v1/policy_drafts_pb.js";
import { CreateProjectRequestSchema, UpdateProjectRequestSchema, type CreateProjectRequest, type UpdateProjectRequest } from "../gen/parapet/v1/projects_pb.js";
import { analyticsService } from "./analytics/service.js";
import { apiKeyService } from "./api-keys/service.js";
import { apiKeyRequestViolations, apiKeyUpdateViolations } from "./api-keys/validation.js";
import { accessLogInterceptor } from "./api/interceptors/access-log.js";
import { authInterceptor } from "./api/interceptors/auth.js";
import { errorInterceptor } from "./api/interceptors/errors.js";
import { timeoutInterceptor } from "./api/interceptors/timeout.js";
import { validationInterceptor, type CrossFieldRules, type FieldViolation } from "./api/interceptors/validation.js";
import { bootstrapInTurn } from "./auth/bootstrap.js";
import { openRequestLimits } from "./auth/request-limits.js";
import type { Config } from "./config.js";
import { customGuardrailService } from "./custom-guardrails/service.js";
import { guardrailViolations } from "./custom-guardrails/validation.js";
import { policyDraftService } from "./guard/policy-draft-service.js";
import type { GuardDeps } from "./guard/deps.js";
import { guardService } from "./guard/service.js";
import { guardStreams, type GuardStreams } from "./guard/stream/service.js";
import { warmUp } from "./guard/warm-up.js";
import { defaultPoolLimits, ScreeningPool } from "./guard/worker-pool.js";
import { logService } from "./logs/service.js";
import { migrateStore } from "./migrations.js";
import { AccessLog } from "./observability/access-log.js";
import { createLogger, type Logger } from "./observability/logger.js";
import { Metrics } from "./observability/metrics.js";
import { retiredPolicyService } from "./policies/retired-policy-service.js";
import { policyService } from "./policies/service.js";
import { policyRequestViolations } from "./policies/validation.js";
import { projectService, projectsScreenedBy } from "./projects/service.js";
import { projectRequestViolations } from "./projects/validation.js";
import { projectFile } from "./paths.js";
import { openRepositories, type Repositories } from "./repositories.js";
import { Judge, type JudgeObserver } from "./screening/judges/judge.js";
import { JudgePrepass } from "./screening/judges/prepass.js";
import { judgeModelName } from "./screening/judges/settings.js";
import { modelThreadState, onModelThread } from "./screening/models/runtime.js";
import { detectorsVersion, loadDetectors, prepareDetectors, releaseDetectors, screeningTextCost } from "./screening/registry.js";
import { createConsoleHandler } from "./server/console.js";
import { createHttpHandler, type HttpHandlerParts, type RequestLoad } from "./server/http-handler.js";
import { listen, type Listener } from "./server/listener.js";
import { listenMetrics } from "./server/metrics-listener.js";
import { createRpcHandler } from "./server/rpc-adapter.js";
import type { ProbeState } from "./server/probes.js";
import { createRestHandler, sendError } from "./server/rest/handler.js";
import { apiRoutes, apiServices, rpcPaths, serverRoutes, type ServiceImpls } from "./server/routes.js";
import { localUrlOf, writeServiceRecord } from "./server/service-record.js";
import type { Database } from "./storage/collection.js";
import { openDatabase } from "./storage/open.js";

export interface App {
  port: number;
  db: Database;
  /** Repositories, shared with tests and tools running in the same process. */
  repos: Repositories;
  log: Logger;
  metrics: Metrics;
  /** Settles when the start-up warm-up has ended and /readyz answers ready (at once with PARAPET_WARMUP_MS=0). */
  warmedUp: Promise<void>;
  /**
   * Graceful stop (docs/operations.md#shutdown): readiness false, then still serving for `drainMs`
   * (0 by default; `signal` ends it early), then stop accepting, finish in-flight requests, flush storage.
   */
  close(options?: { drainMs?: number; signal?: AbortSignal }): Promise<void>;
}

/** Rules spanning fields, run by the validation interceptor beside the proto rules. */
/** `violations` of a request field's own rules, with paths from the request. */
function under(field: string, violations: FieldViolation[]): FieldViolation[] {
  return violations.map((v) => ({ ...v, field: v.field ? `${field}.${v.field}` : field }));
}

const crossFieldRules: CrossFieldRules = {
  [CreatePolicyRequestSchema.typeName]: (r: CreatePolicyRequest) => policyRequestViolations(r.policy),
  [UpdatePolicyRequestSchema.typeName]: (r: UpdatePolicyRequest) => policyRequestViolations(r.policy),
  // The draft endpoints take the whole request as their body: paths start at `policy`, as protovalidate's do.
  [PreviewPolicyImpactRequestSchema.typeName]: (r: PreviewPolicyImpactRequest) => under("policy", policyRequestViolations(r.policy)),
  [LintPolicyDraftRequestSchema.typeName]: (r: LintPolicyDraftRequest) => under("policy", policyRequestViolations(r.policy)),
  [CreateProjectRequestSchema.typeName]: (r: CreateProjectRequest) => projectRequestViolations(r.project),
  [UpdateProjectRequestSchema.typeName]: (r: UpdateProjectRequest) => projectRequestViolations(r.project),
  [CreateCustomGuardrailRequestSchema.typeName]: (r: CreateCustomGuardrailRequest) => guardrailViolations(r.customGuardrail),
  [UpdateCustomGuardrailRequestSchema.typeName]: (r: UpdateCustomGuardrailRequest) => guardrailViolations(r.customGuardrail),
  [CreateApiKeyRequestSchema.typeName]: (r: CreateApiKeyRequest) => apiKeyRequestViolations(r),
  [UpdateApiKeyRequestSchema.typeName]: (r: UpdateApiKeyRequest) => apiKeyUpdateViolations(r),
};

/** The vault and its settings, for sanitize, RestoreText and streams that restore (docs/sanitize.md). */
function sanitizeSettings(repos: Repositories, config: Config) {
  // A restored text may be several times its request (originals are longer than placeholders), within bounds.
  return { vault: repos.vault, vaultTtlSeconds: config.vaultTtlSeconds, maxRestoredChars: 4 * config.maxBodyBytes };
}

/** Every RPC service, each built whole by its own module; routes.ts registers them by these names. */
function services(config: Config, repos: Repositories, guard: GuardDeps, streams: GuardStreams["handlers"]): ServiceImpls {
  const { orgs, policies, projects, guardrails, logs, rollups } = repos;
  const guardrailLocations = async (orgId: string, ids: string[]) => new Map((await guardrails.many(orgId, ids)).map((g) => [g._id, g.locations]));
  return {
    policies: policyService({ orgs, policies, guardrailLocations, projectsScreenedBy: (org, policyId) => projectsScreenedBy(projects, org, policyId) }),
    policyDrafts: policyDraftService({ orgs, projects, guardrails, logs, judges: guard.judges, prepare: prepareDetectors, requestTimeoutMs: config.requestTimeoutMs }),
    projects: projectService({ orgs, policies, projects }),
    customGuardrails: customGuardrailService({ orgs, guardrails }),
    guard: guardService(guard, streams),
    logs: logService({ orgs, logs, keys: repos.keys }),
    analytics: analyticsService({ orgs, rollups }),
    retiredPolicies: retiredPolicyService,
    apiKeys: apiKeyService({ orgs, keys: repos.keys }),
  };
}

/** The store brought to the current schema, and its repositories. */
async function openStore(db: Database, config: Config, log: Logger): Promise<Repositories> {
  await migrateStore(db, log);
  return openRepositories(db, config.retentionDays * 86_400, { vaultKey: config.vaultKey });
}

async function loadDetectorsLogged(options: Parameters<typeof loadDetectors>[0], log: Logger): Promise<void> {
  const started = performance.now();
  await loadDetectors(options);
  log.info({ ms: Math.round(performance.now() - started), model_version: detectorsVersion() }, "detectors loaded");
}

/** The worker threads that screen large requests; none when configured with 0 workers. */
function screeningPoolOf(config: Config, metrics: Metrics, detectorOptions: Parameters<typeof loadDetectors>[0]): ScreeningPool | undefined {
  if (config.screeningWorkers <= 0) return undefined;
  return new ScreeningPool(config.screeningWorkers, metrics, detectorOptions, {
    ...defaultPoolLimits,
    maxQueue: config.screeningQueue,
    maxQueuePerOrg: config.screeningQueuePerOrg,
    maxWaitMs: config.screeningMaxWaitMs,
  });
}

/**
 * The model thread's crashes and restarts in the log and the metrics, and /readyz failing once it stopped
 * restarting (docs/learned-detectors.md#when-the-model-thread-crashes); returns the unsubscribe.
 */
function watchModelThread(probes: ProbeState, metrics: Metrics, log: Logger): () => void {
  probes.unable = () => (modelThreadState() === "stopped" ? "models_unavailable" : undefined);
  return onModelThread((e) => {
    if (e.kind === "crashed")
      log.error({ cause: e.cause, restart_in_ms: e.restartInMs }, "model thread crashed: requests that need a configured model answer 503 until it restarts");
    else if (e.kind === "restarted") {
      metrics.modelThreadRestarts.inc({ outcome: "ok" });
      log.info({ after_ms: e.afterMs }, "model thread restarted");
    } else if (e.kind === "start_failed") {
      metrics.modelThreadRestarts.inc({ outcome: "failed" });
      log.error({ cause: e.cause, restart_in_ms: e.restartInMs }, "model thread failed to start again");
    } else {
      metrics.modelThreadRestarts.inc({ outcome: "failed" });
      log.error(
        { cause: e.cause, failed_starts: e.failedStarts },
        "model thread stopped restarting: /readyz answers 503, requests that need a configured model answer 503",
      );
    }
  });
}

/** The LLM judge's calls, skips and cache hits as metrics; its failures and circuit changes in the service log (docs/judges.md#metrics). */
function judgeObserver(metrics: Metrics, log: Logger): JudgeObserver {
  return {
    call(seconds, outcome) {
      metrics.judgeLatency.observe({ outcome }, seconds);
      if (outcome !== "ok") metrics.judgeErrors.inc({ reason: outcome });
    },
    skip: (reason) => metrics.judgeSkips.inc({ reason }),
    cacheHit: () => metrics.judgeCacheHits.inc(),
    log: (level, fields, message) => log[level](fields, message),
  };
}

/** The judge's pre-pass when PARAPET_JUDGE_URL is set; nothing is called at start-up (the judge may come up later). */
function judgesOf(config: Config, metrics: Metrics, log: Logger): { prepass: JudgePrepass; judge: Judge } | undefined {
  if (!config.judge) return undefined;
  const judge = new Judge(config.judge, judgeObserver(metrics, log));
  const { url, model, format, failMode, combine, timeoutMs, concurrency } = config.judge;
  log.info({ url, model, format, fail_mode: failMode, combine, timeout_ms: timeoutMs, concurrency }, "LLM judge configured");
  return { prepass: new JudgePrepass(judge), judge };
}

/** One set of dependencies for GuardService's unary calls and its streams. */
function guardDepsOf(config: Config, repos: Repositories, run: Pick<GuardDeps, "metrics" | "pool" | "busy" | "log" | "access" | "judges">): GuardDeps {
  const judgeName = config.judge && judgeModelName(config.judge);
  return {
    ...repos,
    ...run,
    prepare: prepareDetectors,
    textCost: screeningTextCost,
    modelVersion: judgeName ? () => `${detectorsVersion()}+${judgeName}` : detectorsVersion,
    maxMessages: config.maxMessages,
    maxBodyBytes: config.maxBodyBytes,
    workerThresholdChars: config.workerThresholdChars,
    requestTimeoutMs: config.requestTimeoutMs,
    build: { gitRevision: config.gitRevision, gitTimestamp: config.gitTimestamp },
    sanitize: sanitizeSettings(repos, config),
    limits: config.streams,
  };
}

/** The record by which the `parapet` command finds the service on this data directory (docs/cli.md#the-service-record). */
function recordService(config: Config, port: number, log: Logger): () => void {
  const url = localUrlOf(config.host, port, Boolean(config.tls));
  return writeServiceRecord(config.dataDir, url, (err) => log.warn({ err: String(err) }, "could not write the service record for the parapet command"));
}

/**
 * The time balancers need to see /readyz fail (their check interval times the failures they wait
 * for) before connections stop arriving: the service still serves everything meanwhile.
 */
async function drain(ms: number, signal: AbortSignal | undefined, log: Logger): Promise<void> {
  if (ms <= 0 || signal?.aborted) return;
  log.info({ drain_seconds: ms / 1000 }, "draining: /readyz answers 503 while requests are still served");
  const ended = await new Promise<"elapsed" | "cut short">((resolve) => {
    const timer = setTimeout(() => resolve("elapsed"), ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve("cut short")), { once: true });
  });
  if (ended === "cut short") log.info("drain cut short by a second signal");
}

/**
 * The warm-up of the screening path (docs/operations.md#warm-up), started once the listener is open so
 * /livez answers meanwhile; /readyz answers ready when it ends, however it ends. Stopping ends it.
 */
function startWarmUp(config: Config, pool: ScreeningPool | undefined, probes: ProbeState, log: Logger, closers: (() => unknown)[]): Promise<void> {
  if (config.warmUpMs <= 0) {
    probes.warming = false;
    log.info("warm-up skipped (PARAPET_WARMUP_MS=0)");
    return Promise.resolve();
  }
  const stop = new AbortController();
  const workers = pool ? config.screeningWorkers : 0;
  log.info({ budget_ms: config.warmUpMs, workers }, "warming up the screening path: /readyz answers 503 until it ends");
  const done = warmUp(config.warmUpMs, stop.signal, pool, workers)
    .then(
      ({ ms, screenings, workerScreenings, ended }) =>
        log.info({ ms, budget_ms: config.warmUpMs, screenings, worker_screenings: workerScreenings, ended }, "warm-up finished"),
      // A failed warm-up costs latency, not correctness: the service serves without it.
      (err) => log.warn({ err: err instanceof Error ? err.message : String(err) }, "warm-up failed; ready without it"),
    )
    .finally(() => (probes.warming = false));
  closers.push(async () => {
    stop.abort();
    await done;
  });
  return done;
}

/** App.close: each phase logged, so an operator can tell where a slow stop spends its time. */
function closerOf(probes: ProbeState, listener: Listener, closers: (() => unknown)[], log: Logger): App["close"] {
  return async (options = {}) => {
    // Readiness goes false first so load balancers stop sending traffic.
    probes.shuttingDown = true;
    await drain(options.drainMs ?? 0, options.signal, log);
    log.info("listener closed: new connections refused; waiting for requests in flight");
    await listener.close();
    log.info("requests in flight finished; closing streams, workers and storage");
    for (const close of [...closers].reverse()) await close();
  };
}

/**
 * The request handler's metrics: counted always (unless PARAPET_METRICS=off), and served at /metrics
 * on the main port, or on their own address when PARAPET_METRICS_PORT is set (started here, closed
 * after the main listener).
 */
async function metricsParts(config: Config, metrics: Metrics, log: Logger, closers: (() => unknown)[]): Promise<Pick<HttpHandlerParts, "metrics" | "metricsElsewhere">> {
  if (!config.metrics) return {};
  if (!config.metricsListen) return { metrics };
  const { host, port } = config.metricsListen;
  const listener = await listenMetrics(host, port, metrics, config.connections);
  closers.push(() => listener.close());
  log.info({ port: listener.port, host }, "metrics listening");
  return { metrics, metricsElsewhere: true };
}

/** The RPC and REST interceptors, outermost first. */
function interceptorsOf(config: Config, repos: Repositories, limits: Awaited<ReturnType<typeof openRequestLimits>>, access: AccessLog, log: Logger) {
  return [
    errorInterceptor(log),
    // Outside auth: the key lookup and the rate limit's storage calls count toward the deadline too.
    timeoutInterceptor(config.requestTimeoutMs),
    authInterceptor(repos.keys, limits.requests, limits.failures),
    accessLogInterceptor(access),
    validationInterceptor(crossFieldRules),
  ];
}

export async function startApp(config: Config, log: Logger = createLogger(config.logLevel)): Promise<App> {
  const db = await openDatabase({
    mongodbUri: config.mongodbUri,
    dataDir: config.dataDir,
    onWarning: (message, err) => log.warn({ err: String(err) }, message),
    log,
    acceptJournalLoss: config.acceptJournalLoss,
    lockWaitMs: config.lockWaitMs,
  });
  const probes: ProbeState = { started: false, warming: config.warmUpMs > 0, shuttingDown: false, ping: () => db.ping() };
  // Released in reverse order of acquisition; storage last, after in-flight work.
  const closers: (() => unknown)[] = [() => db.close()];
  try {
    const repos = await openStore(db, config, log);
    const detectorOptions = { models: config.models };
    await loadDetectorsLogged(detectorOptions, log);
    // The model thread stops after the workers that use it.
    closers.push(() => releaseDetectors(detectorOptions));
    const keys = { keysFile: config.bootstrapKeysFile, platformKey: config.bootstrapPlatformKey, screeningKey: config.bootstrapScreeningKey };
    await bootstrapInTurn(db, repos.orgs, repos.keys, keys, log);

    const metrics = new Metrics();
    closers.push(watchModelThread(probes, metrics, log));
    const pool = screeningPoolOf(config, metrics, detectorOptions);
    closers.push(() => pool?.close());
    await pool?.ready();
    // Several requests at once: small ones may be screened on a worker with room as well.
    const load: RequestLoad = { inFlight: 0 };
    const busy = () => load.inFlight > 1;
    const access = new AccessLog();
    const judges = judgesOf(config, metrics, log);
    closers.push(() => judges?.judge.close());
    const guard = guardDepsOf(config, repos, { metrics, pool, busy, log, access, judges: judges?.prepass });
    // GuardStream and its REST sessions (docs/streaming.md); open sessions are logged before storage closes.
    const streams = guardStreams(guard);
    closers.push(() => streams.close());
    const impls = services(config, repos, guard, streams.handlers);
    const limits = await openRequestLimits(db, config, log);
    const interceptors = interceptorsOf(config, repos, limits, access, log);
    const connect = createRpcHandler({
      routes: serverRoutes(impls),
      log,
      interceptors,
      readMaxBytes: config.maxBodyBytes,
      fallback: (req, res) => sendError(res, "route_not_found", `no route for ${(req.url ?? "/").split("?")[0]}`, String(req.headers["x-request-id"] ?? "")),
    });
    const rest = createRestHandler({ services: apiServices, routes: apiRoutes(impls), interceptors, maxBodyBytes: config.maxBodyBytes });
    const listener = await listen({
      host: config.host,
      port: config.port,
      tls: config.tls,
      limits: config.connections,
      log,
      metrics,
      handler: createHttpHandler({
        rest,
        connect,
        rpcPaths: rpcPaths(),
        probes,
        log,
        ...(await metricsParts(config, metrics, log, closers)),
        console: createConsoleHandler(projectFile("dist", "console")),
        load,
        access,
      }),
    });
    probes.started = true;
    log.info({ port: listener.port, host: config.host, storage: db.engine, tls: Boolean(config.tls) }, "parapet listening");
    if (db.engine === "embedded") closers.push(recordService(config, listener.port, log));
    const warmedUp = startWarmUp(config, pool, probes, log, closers);

    return {
      port: listener.port,
      db,
      repos,
      log,
      metrics,
      warmedUp,
      close: closerOf(probes, listener, closers, log),
    };
  } catch (err) {
    for (const close of [...closers].reverse()) await Promise.resolve(close()).catch(() => {});
    throw err;
  }
}
