// Prometheus metrics at /metrics (docs/operations.md#metrics). Labels are bounded: endpoints are
// route templates or RPC paths the service registers, never raw URLs; detector types are the
// registry's (custom guardrails count as one, `custom_guardrail`); projects are capped per process
// (MAX_PROJECT_LABELS, below).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * Projects are created by tenants without bound, and each label value is a series per detector
 * type kept for the life of the process: past this many distinct projects, further ones are
 * counted under OTHER_PROJECTS.
 */
export const MAX_PROJECT_LABELS = 200;
export const OTHER_PROJECTS = "_other";

/** A logged screening decision: the project it was screened under, whether it was flagged, the detector types that fired. */
export interface Decision {
  projectId: string;
  flagged: boolean;
  fired: readonly string[];
}

export class Metrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: "parapet_http_requests_total",
    help: "Requests answered, by endpoint (route template or RPC) and HTTP status.",
    labelNames: ["endpoint", "status"] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: "parapet_http_request_duration_seconds",
    help: "Time from request start to response end, by endpoint.",
    labelNames: ["endpoint"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly detections = new Counter({
    name: "parapet_detections_total",
    help: "Detector firings in screening requests, by detector type.",
    labelNames: ["detector_type"] as const,
    registers: [this.registry],
  });

  readonly decisions = new Counter({
    name: "parapet_decisions_total",
    help: "Logged screening decisions (/v2/guard and closed streams), by project and whether they were flagged.",
    labelNames: ["project", "flagged"] as const,
    registers: [this.registry],
  });

  readonly flaggedDecisions = new Counter({
    name: "parapet_flagged_decisions_total",
    help: "Flagged screening decisions, by project and by each detector type that fired in them.",
    labelNames: ["project", "detector_type"] as const,
    registers: [this.registry],
  });

  private readonly projectLabels = new Set<string>();

  /** Server time per GuardStream delta, from its arrival to its verdict (docs/streaming.md#latency). */
  readonly streamDelta = new Histogram({
    name: "parapet_stream_delta_duration_seconds",
    help: "Time from a stream delta's arrival to its verdict, every protocol.",
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.01, 0.025, 0.1],
    registers: [this.registry],
  });
  readonly storageLatency = new Histogram({
    name: "parapet_storage_write_duration_seconds",
    help: "Durable write time of the request log and analytics event of a screening request.",
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [this.registry],
  });

  readonly inFlight = new Gauge({
    name: "parapet_requests_in_flight",
    help: "Requests being processed.",
    registers: [this.registry],
  });

  readonly screeningQueue = new Gauge({
    name: "parapet_screening_queue_depth",
    help: "Screening jobs waiting for a worker thread.",
    registers: [this.registry],
  });

  readonly screenings = new Counter({
    name: "parapet_screenings_total",
    help: "Screening calls, by the thread that screened them: inline on the main thread or on a worker.",
    labelNames: ["thread"] as const,
    registers: [this.registry],
  });

  /** An LLM judge's calls (docs/judges.md#metrics): time to answer or fail, by outcome (`ok` or the failure). */
  readonly judgeLatency = new Histogram({
    name: "parapet_judge_call_duration_seconds",
    help: "Time of each call to the LLM judge, by outcome: ok, or why it failed (timeout, deadline, unreachable, status, malformed).",
    labelNames: ["outcome"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });

  readonly judgeErrors = new Counter({
    name: "parapet_judge_errors_total",
    help: "Failed calls to the LLM judge, by reason: timeout, deadline, unreachable, status (a non-2xx answer), malformed (an answer the format cannot read).",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  readonly judgeSkips = new Counter({
    name: "parapet_judge_skips_total",
    help: "Judgements the LLM judge did not make, the project's fail mode applying instead, by reason: error, breaker_open, deadline, concurrency.",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  readonly judgeCacheHits = new Counter({
    name: "parapet_judge_cache_hits_total",
    help: "LLM judge verdicts answered from the cache, without a call.",
    registers: [this.registry],
  });

  /** Connections the listener closed as they arrived, by the cap that refused them (docs/configuration.md#connections). */
  readonly connectionsRefused = new Counter({
    name: "parapet_connections_refused_total",
    help: "Connections closed as they were accepted, by the cap that refused them: max_connections or per_address.",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  /** HTTP/2 sessions ended for abuse (docs/configuration.md#connections). */
  readonly http2SessionsClosed = new Counter({
    name: "parapet_http2_sessions_closed_total",
    help: "HTTP/2 sessions closed for abuse, by reason: stream_resets or invalid_frames.",
    labelNames: ["reason"] as const,
    registers: [this.registry],
  });

  /** The model thread's restarts after a crash (docs/learned-detectors.md#when-the-model-thread-crashes), by outcome. */
  readonly modelThreadRestarts = new Counter({
    name: "parapet_model_thread_restarts_total",
    help: "Restarts of the model thread after it crashed, by outcome: ok (it runs again) or failed (its graphs did not load; retried with backoff, then given up).",
    labelNames: ["outcome"] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "parapet_" });
    // /metrics answers without a key: the exact runtime version tells an attacker which
    // advisories apply (docs/operations.md#metrics). The other runtime metrics stay.
    this.registry.removeSingleMetric("parapet_nodejs_version_info");
  }

  /** Counts a decision once it is logged, whatever the protocol that carried it. */
  recordDecision(d: Decision): void {
    const project = this.projectLabel(d.projectId);
    this.decisions.inc({ project, flagged: String(d.flagged) });
    for (const type of d.fired) {
      this.detections.inc({ detector_type: type });
      if (d.flagged) this.flaggedDecisions.inc({ project, detector_type: type });
    }
  }

  private projectLabel(projectId: string): string {
    if (this.projectLabels.has(projectId)) return projectId;
    if (this.projectLabels.size >= MAX_PROJECT_LABELS) return OTHER_PROJECTS;
    this.projectLabels.add(projectId);
    return projectId;
  }
}
