// Service configuration: the only module that reads the environment
// (docs/configuration.md). Everything else is handed what it needs.
import { availableParallelism } from "node:os";
import path from "node:path";
import type { OnnxPromptAttackOptions } from "./screening/detectors/learned/onnx-prompt-attack.js";

export interface Config {
  host: string;
  port: number;
  tls?: { certFile: string; keyFile: string };
  dataDir: string;
  mongodbUri?: string;
  /** Request logs and analytics events older than this are removed. */
  retentionDays: number;
  maxBodyBytes: number;
  bootstrapPlatformKey?: string;
  bootstrapScreeningKey?: string;
  logLevel: string;
  /** Per-key sustained requests per second (0: no limit) and burst. */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** A request still running after this answers 504. */
  requestTimeoutMs: number;
  /** Most messages (and, separately, tool definitions) one screening request may carry. */
  maxMessages: number;
  /** Serve Prometheus metrics at /metrics. */
  metrics: boolean;
  /** Worker threads for large screening requests (0: screen everything on the main thread). */
  screeningWorkers: number;
  /** Requests with at least this many characters of screened text go to a worker thread. */
  workerThresholdChars: number;
  /** A bring-your-own ONNX prompt_attack model, when PARAPET_PROMPT_ATTACK_ONNX is set. */
  promptAttackOnnx?: OnnxPromptAttackOptions;
  /** dev_info's source revision and its time, for deployments without a .git directory. */
  gitRevision?: string;
  gitTimestamp?: string;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cert = env.TLS_CERT_FILE;
  const key = env.TLS_KEY_FILE;
  if (Boolean(cert) !== Boolean(key)) throw new Error("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  return {
    host: env.HOST || "0.0.0.0",
    port: int(env, "PORT", 8080, 0, 65535),
    tls: cert && key ? { certFile: cert, keyFile: key } : undefined,
    dataDir: path.resolve(env.PARAPET_DATA_DIR || "./data"),
    mongodbUri: env.MONGODB_URI || undefined,
    retentionDays: int(env, "PARAPET_RETENTION_DAYS", 30, 1, 3650),
    maxBodyBytes: int(env, "PARAPET_MAX_BODY_BYTES", 1024 * 1024, 1024, 64 * 1024 * 1024),
    bootstrapPlatformKey: env.PARAPET_BOOTSTRAP_PLATFORM_KEY || undefined,
    bootstrapScreeningKey: env.PARAPET_BOOTSTRAP_SCREENING_KEY || undefined,
    logLevel: env.LOG_LEVEL || "info",
    rateLimitPerSecond: int(env, "PARAPET_RATE_LIMIT_RPS", 5000, 0, 1_000_000),
    rateLimitBurst: int(env, "PARAPET_RATE_LIMIT_BURST", 10_000, 1, 10_000_000),
    requestTimeoutMs: int(env, "PARAPET_REQUEST_TIMEOUT_MS", 30_000, 100, 600_000),
    maxMessages: int(env, "PARAPET_MAX_MESSAGES", 1000, 1, 100_000),
    metrics: (env.PARAPET_METRICS ?? "on") !== "off",
    screeningWorkers: int(env, "PARAPET_SCREENING_WORKERS", Math.max(1, availableParallelism() - 1), 0, 64),
    workerThresholdChars: int(env, "PARAPET_WORKER_THRESHOLD_CHARS", 8000, 1, 100_000_000),
    promptAttackOnnx: promptAttackOnnxOf(env),
    gitRevision: env.PARAPET_GIT_REVISION || undefined,
    gitTimestamp: env.PARAPET_GIT_TIMESTAMP || undefined,
  };
}

/** Options from PARAPET_PROMPT_ATTACK_ONNX / _TOKENIZER / _THRESHOLDS / _LABEL, or undefined when unset. */
export function promptAttackOnnxOf(env: NodeJS.ProcessEnv): OnnxPromptAttackOptions | undefined {
  const modelPath = env.PARAPET_PROMPT_ATTACK_ONNX;
  if (!modelPath) return undefined;
  const tokenizerPath = env.PARAPET_PROMPT_ATTACK_TOKENIZER;
  if (!tokenizerPath) throw new Error("PARAPET_PROMPT_ATTACK_ONNX is set but PARAPET_PROMPT_ATTACK_TOKENIZER (vocab.txt or tokenizer.json) is not");
  const o: OnnxPromptAttackOptions = { modelPath, tokenizerPath };
  if (env.PARAPET_PROMPT_ATTACK_ONNX_THRESHOLDS) {
    const t = env.PARAPET_PROMPT_ATTACK_ONNX_THRESHOLDS.split(",").map(Number);
    if (t.length !== 4 || t.some((x) => !(x >= 0 && x <= 1))) throw new Error("PARAPET_PROMPT_ATTACK_ONNX_THRESHOLDS must be four numbers in [0, 1]: l1,l2,l3,l4");
    o.thresholds = { l1_confident: t[0], l2_very_likely: t[1], l3_likely: t[2], l4_less_likely: t[3] };
  }
  if (env.PARAPET_PROMPT_ATTACK_ONNX_LABEL) o.attackLabel = Number(env.PARAPET_PROMPT_ATTACK_ONNX_LABEL);
  return o;
}
