// Service configuration: the only module that reads the environment
// (docs/configuration.md). Everything else is handed what it needs.
import { statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { readCalibration } from "./screening/calibration/file.js";
import type { LevelThresholds } from "./screening/detectors/learned/runtime/levels.js";
import { AGGREGATIONS } from "./screening/models/entities.js";
import { parseLabelPairs, SLOT_LABELS, type LabelPair, type ModelSlot } from "./screening/models/labels.js";
import type { Combine, ModelSettings, SlotSettings } from "./screening/models/settings.js";
import { FAIL_MODES, JUDGE_DEFAULTS, JUDGE_FORMATS, judgeModelName, type JudgeSettings } from "./screening/judges/settings.js";

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
  /** Where generated bootstrap keys are saved as well as shown; none under MongoDB unless PARAPET_BOOTSTRAP_KEYS_FILE says. */
  bootstrapKeysFile?: string;
  logLevel: string;
  /** Per-key sustained requests per second and burst (either 0: no limit). */
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  /** A request still running after this answers 504. */
  requestTimeoutMs: number;
  /** Connection cap and the deadlines of each stage of a connection (docs/configuration.md#connections). */
  connections: {
    maxConnections: number;
    maxConnectionsPerAddress: number;
    protocolTimeoutMs: number;
    headersTimeoutMs: number;
    receiveTimeoutMs: number;
    idleTimeoutMs: number;
  };
  /** Most messages (and, separately, tool definitions) one screening request may carry. */
  maxMessages: number;
  /** Serve Prometheus metrics at /metrics. */
  metrics: boolean;
  /** Where /metrics is served instead of the main port (docs/operations.md#metrics); unset: on the main port. */
  metricsListen?: { host: string; port: number };
  /** Worker threads for large screening requests (0: screen everything on the main thread). */
  screeningWorkers: number;
  /** Requests with at least this many characters of screened text go to a worker thread. */
  workerThresholdChars: number;
  /** Screening jobs waiting for a worker: in all, per organization, and the longest wait before 503. */
  screeningQueue: number;
  screeningQueuePerOrg: number;
  screeningMaxWaitMs: number;
  /** Models that serve built-in detectors (docs/configuration.md#models): `slots` is empty when none is configured. */
  models: ModelSettings;
  /** Journal segments whose damage the operator accepts losing (docs/storage.md#damaged-journal). */
  acceptJournalLoss: string[];
  /** How long start-up waits for the previous owner of the data directory to exit. */
  lockWaitMs: number;
  /** Failed authentications allowed per client address and per failed key: a burst, then so many per minute (0: no limit). */
  authFailureBurst: number;
  authFailuresPerMinute: number;
  /** On SIGTERM, how long /readyz fails while requests are still served, before the listener closes (docs/operations.md#shutdown). */
  drainMs: number;
  /** After start-up, at most how long the screening path warms up before /readyz answers ready (docs/operations.md#warm-up); 0: no warm-up. */
  warmUpMs: number;
  /** Key of the sanitize vault (docs/sanitize.md#encryption); without it reversible sanitization answers 403. */
  vaultKey?: Buffer;
  /** How long a reversible sanitization's vault entry can be restored. */
  vaultTtlSeconds: number;
  /** Streamed screening (docs/streaming.md#limits): idle expiry, open streams per organization and in all, deltas per stream. */
  streams: { idleMs: number; maxPerOrg: number; maxTotal: number; maxDeltas: number };
  /** dev_info's source revision and its time, for deployments without a .git directory. */
  gitRevision?: string;
  gitTimestamp?: string;
  /** An LLM judge over an OpenAI-compatible endpoint, when PARAPET_JUDGE_URL is set (docs/judges.md#settings). */
  judge?: JudgeSettings;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got '${raw}'`);
  return n;
}

// pino's levels; pino itself throws on an unknown one, with a stack trace, after the configuration was accepted.
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, fallback: T, values: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!values.includes(raw as T)) throw new Error(`${name} must be one of ${values.join(", ")}, got '${raw}'`);
  return raw as T;
}

/**
 * A burst of 0 disables the limit like a rate of 0 does: a bucket that never holds a token would refuse every
 * request, which nobody configures on purpose (docs/configuration.md).
 */
function rateLimitOf(env: NodeJS.ProcessEnv): Pick<Config, "rateLimitPerSecond" | "rateLimitBurst"> {
  const perSecond = int(env, "PARAPET_RATE_LIMIT_RPS", 5000, 0, 1_000_000);
  const burst = int(env, "PARAPET_RATE_LIMIT_BURST", 10_000, 0, 10_000_000);
  return burst === 0 ? { rateLimitPerSecond: 0, rateLimitBurst: 0 } : { rateLimitPerSecond: perSecond, rateLimitBurst: burst };
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
    bootstrapPlatformKey: bootstrapKeyOf(env, "PARAPET_BOOTSTRAP_PLATFORM_KEY"),
    bootstrapScreeningKey: bootstrapKeyOf(env, "PARAPET_BOOTSTRAP_SCREENING_KEY"),
    bootstrapKeysFile: bootstrapKeysFileOf(env),
    logLevel: oneOf(env, "LOG_LEVEL", "info", LOG_LEVELS),
    ...rateLimitOf(env),
    requestTimeoutMs: int(env, "PARAPET_REQUEST_TIMEOUT_MS", 30_000, 100, 600_000),
    connections: connectionsOf(env),
    maxMessages: int(env, "PARAPET_MAX_MESSAGES", 1000, 1, 100_000),
    metrics: oneOf(env, "PARAPET_METRICS", "on", ["on", "off"]) === "on",
    metricsListen: metricsListenOf(env),
    screeningWorkers: int(env, "PARAPET_SCREENING_WORKERS", Math.max(1, availableParallelism() - 1), 0, 64),
    workerThresholdChars: int(env, "PARAPET_WORKER_THRESHOLD_CHARS", 8000, 1, 100_000_000),
    screeningQueue: int(env, "PARAPET_SCREENING_QUEUE", 256, 1, 100_000),
    screeningQueuePerOrg: int(env, "PARAPET_SCREENING_QUEUE_PER_ORG", 64, 1, 100_000),
    screeningMaxWaitMs: int(env, "PARAPET_SCREENING_MAX_WAIT_MS", 5_000, 10, 600_000),
    models: serviceModelSettingsOf(env),
    acceptJournalLoss: journalNamesOf(env, "PARAPET_ACCEPT_JOURNAL_LOSS"),
    lockWaitMs: int(env, "PARAPET_LOCK_WAIT_MS", 10_000, 0, 600_000),
    authFailureBurst: int(env, "PARAPET_AUTH_FAILURE_BURST", 20, 1, 1_000_000),
    authFailuresPerMinute: int(env, "PARAPET_AUTH_FAILURES_PER_MINUTE", 10, 0, 1_000_000),
    drainMs: 1000 * int(env, "PARAPET_DRAIN_SECONDS", 5, 0, 300),
    warmUpMs: int(env, "PARAPET_WARMUP_MS", 5_000, 0, 60_000),
    vaultKey: vaultKeyOf(env, "PARAPET_VAULT_KEY"),
    vaultTtlSeconds: int(env, "PARAPET_VAULT_TTL_SECONDS", 86_400, 60, 86_400),
    streams: {
      idleMs: 1000 * int(env, "PARAPET_STREAM_IDLE_SECONDS", 60, 1, 3600),
      maxPerOrg: int(env, "PARAPET_STREAMS_PER_ORG", 1000, 1, 1_000_000),
      maxTotal: int(env, "PARAPET_STREAMS_MAX", 10_000, 1, 1_000_000),
      maxDeltas: int(env, "PARAPET_STREAM_MAX_DELTAS", 100_000, 1, 100_000_000),
    },
    gitRevision: env.PARAPET_GIT_REVISION || undefined,
    gitTimestamp: env.PARAPET_GIT_TIMESTAMP || undefined,
    judge: judgeOf(env),
  };
}

/** 32 bytes in base64; the message never repeats the value, which is a secret. */
function vaultKeyOf(env: NodeJS.ProcessEnv, name: string): Buffer | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const trimmed = raw.trim();
  const key = Buffer.from(trimmed, "base64");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) || key.length !== 32) {
    throw new Error(`${name} must be 32 random bytes in base64 (44 characters, e.g. from 'openssl rand -base64 32'), got ${trimmed.length} characters`);
  }
  return key;
}

/**
 * A bootstrap key as given, after checking it could be a key at all: a typo'd or truncated
 * value would otherwise become a valid credential (docs/configuration.md#bootstrap-keys).
 */
function bootstrapKeyOf(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const key = env[name];
  if (!key) return undefined;
  const problem = bootstrapKeyProblem(key, name === "PARAPET_BOOTSTRAP_PLATFORM_KEY" ? "ppk_" : "psk_");
  if (problem) throw new Error(`${name} ${problem}`);
  return key;
}

/** Why `key` is not acceptable as a bootstrap key, or undefined. Keys are compared verbatim, so no trimming. */
function bootstrapKeyProblem(key: string, prefix: string): string | undefined {
  if (!key.startsWith(prefix)) return `must start with ${prefix} (the kind of key it is)`;
  if (!/^[A-Za-z0-9_-]+$/.test(key)) return "may contain only letters, digits, '_' and '-' (it is sent in an HTTP header as a bearer token)";
  if (key.length < prefix.length + 24) return `is too short: at least ${prefix.length + 24} characters (${prefix} and 24 random ones), got ${key.length}`;
  if (key.length > 256) return `is too long: at most 256 characters, got ${key.length}`;
  return undefined;
}

/**
 * PARAPET_BOOTSTRAP_KEYS_FILE, else `bootstrap-keys.json` in the data directory for the embedded
 * engine. Under MongoDB no default: replicas share the database, not a directory, and a key file in
 * each container's local directory would be a copy of credentials nobody looks after.
 */
function bootstrapKeysFileOf(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PARAPET_BOOTSTRAP_KEYS_FILE) return path.resolve(env.PARAPET_BOOTSTRAP_KEYS_FILE);
  if (env.MONGODB_URI) return undefined;
  return path.join(path.resolve(env.PARAPET_DATA_DIR || "./data"), "bootstrap-keys.json");
}

/** "journal-00000003.log,...": names only, so that a value left set cannot accept damage in another file. */
function journalNamesOf(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = env[name];
  if (!raw) return [];
  const names = raw.split(",").map((x) => x.trim());
  const bad = names.find((n) => !/^journal-\d{8,}\.log$/.test(n));
  if (bad !== undefined) throw new Error(`${name} must list journal file names as start-up printed them (journal-00000003.log), got '${bad}'`);
  return names;
}

/** A separate address for /metrics: PARAPET_METRICS_PORT, on PARAPET_METRICS_HOST (default: HOST). */
function metricsListenOf(env: NodeJS.ProcessEnv): Config["metricsListen"] {
  const set = (name: string) => env[name] !== undefined && env[name] !== "";
  if (!set("PARAPET_METRICS_PORT")) {
    if (set("PARAPET_METRICS_HOST")) throw new Error("PARAPET_METRICS_HOST is set but PARAPET_METRICS_PORT is not");
    return undefined;
  }
  if (env.PARAPET_METRICS === "off") throw new Error("PARAPET_METRICS_PORT is set but PARAPET_METRICS is off");
  const port = int(env, "PARAPET_METRICS_PORT", 0, 0, 65535);
  if (port !== 0 && port === int(env, "PORT", 8080, 0, 65535)) throw new Error("PARAPET_METRICS_PORT must differ from PORT");
  return { host: env.PARAPET_METRICS_HOST || env.HOST || "0.0.0.0", port };
}

function connectionsOf(env: NodeJS.ProcessEnv): Config["connections"] {
  const c = {
    maxConnections: int(env, "PARAPET_MAX_CONNECTIONS", 4096, 1, 1_000_000),
    maxConnectionsPerAddress: 0,
    protocolTimeoutMs: int(env, "PARAPET_PROTOCOL_TIMEOUT_MS", 10_000, 10, 600_000),
    headersTimeoutMs: int(env, "PARAPET_HEADERS_TIMEOUT_MS", 20_000, 10, 600_000),
    receiveTimeoutMs: int(env, "PARAPET_RECEIVE_TIMEOUT_MS", 60_000, 10, 3_600_000),
    idleTimeoutMs: int(env, "PARAPET_IDLE_TIMEOUT_MS", 65_000, 10, 3_600_000),
  };
  // Node's HTTP server refuses a headers deadline later than the whole request's.
  if (c.headersTimeoutMs > c.receiveTimeoutMs) throw new Error("PARAPET_HEADERS_TIMEOUT_MS must not exceed PARAPET_RECEIVE_TIMEOUT_MS");
  // A quarter by default: one address cannot take the whole budget, yet a proxy in front still gets a fair share.
  c.maxConnectionsPerAddress = int(env, "PARAPET_MAX_CONNECTIONS_PER_ADDRESS", Math.max(1, Math.floor(c.maxConnections / 4)), 1, c.maxConnections);
  return c;
}

/**
 * Where the `parapet` command reaches the running service's API and with which keys, each with the
 * variable it came from for messages (docs/cli.md#finding-the-service). PARAPET_API_KEY is the
 * platform key's earlier name. The service itself never reads these.
 */
export function cliApiOf(env: NodeJS.ProcessEnv = process.env): {
  url?: string;
  platformKey?: { key: string; from: string };
  screeningKey?: { key: string; from: string };
  /** Whether this shell sets PORT, or the command falls back on the default. */
  portSet: boolean;
} {
  const first = (...names: string[]) => {
    const name = names.find((n) => env[n]);
    return name ? { key: env[name]!, from: name } : undefined;
  };
  return {
    url: env.PARAPET_URL || undefined,
    platformKey: first("PARAPET_PLATFORM_KEY", "PARAPET_API_KEY"),
    screeningKey: first("PARAPET_SCREENING_KEY"),
    portSet: Boolean(env.PORT),
  };
}

/**
 * The model settings (docs/configuration.md#models): a Hugging Face model
 * folder per slot, or for prompt_attack and moderation the older
 * single-file settings, and the settings every model shares (window, stride,
 * device, threads, the PII model's aggregation). With no slot set, `slots`
 * is empty and the shared settings are still read: `parapet calibrate --model
 * DIR` runs a folder with them whether or not a slot names it. Folders are
 * checked further when they load, at start-up.
 */
export function modelSettingsOf(env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const slots = [slotOf(env, "prompt_attack") ?? olderPromptAttackOf(env), slotOf(env, "moderation") ?? olderModerationOf(env), slotOf(env, "pii")].filter(
    (s): s is SlotSettings => s !== undefined,
  );
  const general = {
    windowTokens: int(env, "PARAPET_MODEL_WINDOW_TOKENS", 512, 16, 65_536),
    strideTokens: int(env, "PARAPET_MODEL_STRIDE_TOKENS", 128, 0, 65_536),
    device: oneOf(env, "PARAPET_MODEL_DEVICE", "cpu", ["cpu", "cuda"] as const),
    aggregation: oneOf(env, "PARAPET_PII_MODEL_AGGREGATION", "first", AGGREGATIONS),
    threads: int(env, "PARAPET_MODEL_THREADS", availableParallelism(), 1, 1024),
  };
  return { slots, ...general };
}

/** The service's model settings: an aggregation set without a PII model would configure nothing there, so it is refused. */
function serviceModelSettingsOf(env: NodeJS.ProcessEnv): ModelSettings {
  const models = modelSettingsOf(env);
  if (env.PARAPET_PII_MODEL_AGGREGATION && !models.slots.some((s) => s.slot === "pii"))
    throw new Error("PARAPET_PII_MODEL_AGGREGATION is set but PARAPET_PII_MODEL is not");
  return models;
}

/** Each slot's settings by name; `older` is the single-file setting of earlier versions. */
const SLOT_SETTINGS: Record<ModelSlot, { model: string; labels: string; combine: string; calibration: string; older?: string }> = {
  prompt_attack: {
    model: "PARAPET_PROMPT_ATTACK_MODEL",
    labels: "PARAPET_PROMPT_ATTACK_MODEL_LABELS",
    combine: "PARAPET_PROMPT_ATTACK_MODEL_COMBINE",
    calibration: "PARAPET_PROMPT_ATTACK_MODEL_CALIBRATION",
    older: "PARAPET_PROMPT_ATTACK_ONNX",
  },
  moderation: {
    model: "PARAPET_MODERATION_MODEL",
    labels: "PARAPET_MODERATION_MODEL_LABELS",
    combine: "PARAPET_MODERATION_MODEL_COMBINE",
    calibration: "PARAPET_MODERATION_MODEL_CALIBRATION",
    older: "PARAPET_MODERATION_ONNX",
  },
  pii: { model: "PARAPET_PII_MODEL", labels: "PARAPET_PII_MODEL_LABELS", combine: "PARAPET_PII_MODEL_COMBINE", calibration: "PARAPET_PII_MODEL_CALIBRATION" },
};

/** A slot's model folder and its _LABELS, _COMBINE and _CALIBRATION; undefined when the folder is not set (nor are its siblings). */
function slotOf(env: NodeJS.ProcessEnv, slot: ModelSlot): SlotSettings | undefined {
  const names = SLOT_SETTINGS[slot];
  const setting = names.model;
  const dir = env[setting];
  if (!dir) {
    const orphan = [names.labels, names.combine, names.calibration].find((name) => env[name]);
    if (orphan) throw new Error(`${orphan} is set but ${setting} is not`);
    return undefined;
  }
  if (names.older && env[names.older]) throw new Error(`${setting} and ${names.older} (its older name) are both set; keep ${setting}`);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${setting}: no folder at ${dir}`);
  const calibration = env[names.calibration] || undefined;
  if (calibration && !statSync(calibration, { throwIfNoEntry: false })?.isFile()) throw new Error(`${names.calibration}: no file at ${calibration}`);
  const labels = env[names.labels];
  return {
    slot,
    setting,
    dir,
    labels: labels ? parseLabelPairs(labels, names.labels) : undefined,
    labelsSetting: names.labels,
    combine: combineOf(env, slot, names.combine),
    calibration,
  };
}

/**
 * A pii model adds to the exact detectors' spans by default (the issue's
 * "merged with the exact detectors' spans"); a text classifier replaces the
 * built-in head (docs/decisions.md#model-runtime).
 */
function combineOf(env: NodeJS.ProcessEnv, slot: ModelSlot, name: string): Combine {
  return oneOf<Combine>(env, name, slot === "pii" ? "max" : "replace", ["replace", "max"]);
}

/** The older prompt_attack settings: PARAPET_PROMPT_ATTACK_ONNX / _TOKENIZER / _ONNX_THRESHOLDS / _ONNX_LABEL. */
function olderPromptAttackOf(env: NodeJS.ProcessEnv): SlotSettings | undefined {
  const setting = "PARAPET_PROMPT_ATTACK_ONNX";
  const files = onnxFilesOf(env, setting, "PARAPET_PROMPT_ATTACK_TOKENIZER", ["PARAPET_PROMPT_ATTACK_ONNX_THRESHOLDS", "PARAPET_PROMPT_ATTACK_ONNX_LABEL"]);
  if (!files) return undefined;
  const label = env.PARAPET_PROMPT_ATTACK_ONNX_LABEL;
  if (label && !/^\d+$/.test(label.trim())) throw new Error(`PARAPET_PROMPT_ATTACK_ONNX_LABEL must be an output index (an integer from 0), got '${label}'`);
  return {
    slot: "prompt_attack",
    setting,
    files,
    labels: label ? [{ detector: "prompt_attack", model: label.trim() }] : undefined,
    labelsSetting: "PARAPET_PROMPT_ATTACK_ONNX_LABEL",
    combine: combineOf(env, "prompt_attack", SLOT_SETTINGS.prompt_attack.combine),
    thresholds: thresholdsOf(env, "PARAPET_PROMPT_ATTACK_ONNX_THRESHOLDS"),
  };
}

/** The older moderation settings: PARAPET_MODERATION_ONNX / _TOKENIZER / _ONNX_LABELS / _ONNX_THRESHOLDS / _ONNX_ACTIVATION. */
function olderModerationOf(env: NodeJS.ProcessEnv): SlotSettings | undefined {
  const setting = "PARAPET_MODERATION_ONNX";
  const files = onnxFilesOf(env, setting, "PARAPET_MODERATION_TOKENIZER", [
    "PARAPET_MODERATION_ONNX_LABELS",
    "PARAPET_MODERATION_ONNX_THRESHOLDS",
    "PARAPET_MODERATION_ONNX_ACTIVATION",
  ]);
  if (!files) return undefined;
  const raw = env.PARAPET_MODERATION_ONNX_LABELS;
  if (!raw) throw new Error(`PARAPET_MODERATION_ONNX is set but PARAPET_MODERATION_ONNX_LABELS (which output is which category, e.g. "hate=0,sexual=1") is not`);
  const activation = env.PARAPET_MODERATION_ONNX_ACTIVATION;
  if (activation && activation !== "sigmoid" && activation !== "softmax") {
    throw new Error(`PARAPET_MODERATION_ONNX_ACTIVATION must be sigmoid or softmax, got '${activation}'`);
  }
  return {
    slot: "moderation",
    setting,
    files,
    labels: olderLabelMapOf(raw),
    labelsSetting: "PARAPET_MODERATION_ONNX_LABELS",
    combine: combineOf(env, "moderation", SLOT_SETTINGS.moderation.combine),
    thresholds: thresholdsOf(env, "PARAPET_MODERATION_ONNX_THRESHOLDS"),
    // The older settings took each output as its own label unless told otherwise.
    activation: (activation as "sigmoid" | "softmax" | undefined) ?? "sigmoid",
  };
}

/** The model and tokenizer paths, both existing files; undefined when the model is unset and so are its siblings. */
function onnxFilesOf(env: NodeJS.ProcessEnv, model: string, tokenizer: string, siblings: string[]): { modelPath: string; tokenizerPath: string } | undefined {
  const modelPath = env[model];
  if (!modelPath) {
    // A sibling without the model is a setting that would silently do nothing.
    const orphan = [tokenizer, ...siblings].find((name) => env[name]);
    if (orphan) throw new Error(`${orphan} is set but ${model} is not`);
    return undefined;
  }
  const tokenizerPath = env[tokenizer];
  if (!tokenizerPath) throw new Error(`${model} is set but ${tokenizer} (vocab.txt or tokenizer.json) is not`);
  for (const [name, file] of [
    [model, modelPath],
    [tokenizer, tokenizerPath],
  ]) {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new Error(`${name}: no file at ${file}`);
  }
  return { modelPath, tokenizerPath };
}

function thresholdsOf(env: NodeJS.ProcessEnv, name: string): LevelThresholds | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  const parts = raw.split(",");
  const t = parts.map((x) => (x.trim() === "" ? NaN : Number(x)));
  // Levels are given from the most confident down: a lower l1 than l2 would leave l2 unreachable.
  if (t.length !== 4 || t.some((x) => !(x >= 0 && x <= 1)) || t.some((x, i) => i > 0 && x > t[i - 1])) {
    throw new Error(`${name} must be four non-increasing numbers in [0, 1]: l1,l2,l3,l4, got '${raw}'`);
  }
  return { l1_confident: t[0], l2_very_likely: t[1], l3_likely: t[2], l4_less_likely: t[3] };
}

/** "hate=0,sexual=1": the older moderation setting's output index of each category. */
function olderLabelMapOf(raw: string): LabelPair[] {
  const name = "PARAPET_MODERATION_ONNX_LABELS";
  const categories = SLOT_LABELS.moderation;
  const pairs: LabelPair[] = [];
  const byIndex = new Map<string, string>();
  for (const entry of raw.split(",")) {
    const m = /^\s*([^=\s]+)\s*=\s*(\d+)\s*$/.exec(entry);
    if (!m) throw new Error(`${name}: '${entry.trim()}' is not category=index (e.g. "hate=0,sexual=1")`);
    const [, category, index] = m;
    if (!categories.includes(category)) throw new Error(`${name}: unknown category '${category}'; the categories are ${categories.join(", ")}`);
    if (pairs.some((p) => p.detector === category)) throw new Error(`${name}: ${category} is given twice`);
    const other = byIndex.get(String(Number(index)));
    if (other) throw new Error(`${name}: index ${index} is given to both ${other} and ${category}`);
    pairs.push({ detector: category, model: String(Number(index)) });
    byIndex.set(String(Number(index)), category);
  }
  return pairs;
}

// ---- LLM judge (docs/judges.md#settings) ----

const JUDGE_SIBLINGS = [
  "PARAPET_JUDGE_MODEL",
  "PARAPET_JUDGE_FORMAT",
  "PARAPET_JUDGE_API_KEY",
  "PARAPET_JUDGE_TIMEOUT_MS",
  "PARAPET_JUDGE_CONCURRENCY",
  "PARAPET_JUDGE_FAIL_MODE",
  "PARAPET_JUDGE_COMBINE",
  "PARAPET_JUDGE_CALIBRATION",
  "PARAPET_JUDGE_BREAKER_FAILURES",
  "PARAPET_JUDGE_BREAKER_COOLDOWN_MS",
];

/** The base URL Parapet appends /chat/completions to: http(s), no query or fragment, no trailing slash. */
function judgeUrlOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`PARAPET_JUDGE_URL must be an http(s) base URL such as http://localhost:8000/v1, got '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`PARAPET_JUDGE_URL must be http or https, got '${url.protocol}'`);
  if (url.search || url.hash) throw new Error(`PARAPET_JUDGE_URL is a base URL (Parapet POSTs <base>/chat/completions): remove its query or fragment`);
  if (url.username || url.password) throw new Error(`PARAPET_JUDGE_URL must not carry credentials: set PARAPET_JUDGE_API_KEY`);
  return url.href.replace(/\/+$/, "").replace(/\/chat\/completions$/, "");
}

/** The judge's settings from PARAPET_JUDGE_*, or undefined when PARAPET_JUDGE_URL is unset. */
function judgeOf(env: NodeJS.ProcessEnv): JudgeSettings | undefined {
  const raw = env.PARAPET_JUDGE_URL;
  if (!raw) {
    const orphan = JUDGE_SIBLINGS.find((n) => env[n]);
    if (orphan) throw new Error(`${orphan} is set but PARAPET_JUDGE_URL (the judge's OpenAI-compatible base URL) is not`);
    return undefined;
  }
  const model = env.PARAPET_JUDGE_MODEL?.trim();
  if (!model) throw new Error("PARAPET_JUDGE_URL is set but PARAPET_JUDGE_MODEL (the model name the server serves) is not");
  if (!env.PARAPET_JUDGE_FORMAT) throw new Error(`PARAPET_JUDGE_URL is set but PARAPET_JUDGE_FORMAT is not; one of ${JUDGE_FORMATS.join(", ")}`);
  const settings: JudgeSettings = {
    url: judgeUrlOf(raw),
    model,
    format: oneOf(env, "PARAPET_JUDGE_FORMAT", "llama-guard-3", JUDGE_FORMATS),
    apiKey: env.PARAPET_JUDGE_API_KEY || undefined,
    timeoutMs: int(env, "PARAPET_JUDGE_TIMEOUT_MS", JUDGE_DEFAULTS.timeoutMs, 10, 600_000),
    concurrency: int(env, "PARAPET_JUDGE_CONCURRENCY", JUDGE_DEFAULTS.concurrency, 1, 4096),
    failMode: oneOf(env, "PARAPET_JUDGE_FAIL_MODE", JUDGE_DEFAULTS.failMode, FAIL_MODES),
    combine: oneOf(env, "PARAPET_JUDGE_COMBINE", JUDGE_DEFAULTS.combine, ["max", "replace"] as const),
    breakerFailures: int(env, "PARAPET_JUDGE_BREAKER_FAILURES", JUDGE_DEFAULTS.breakerFailures, 1, 10_000),
    breakerCooldownMs: int(env, "PARAPET_JUDGE_BREAKER_COOLDOWN_MS", JUDGE_DEFAULTS.breakerCooldownMs, 10, 3_600_000),
  };
  const calibration = env.PARAPET_JUDGE_CALIBRATION;
  if (calibration) {
    settings.calibration = readCalibration(path.resolve(calibration));
    const expected = judgeModelName(settings);
    if (settings.calibration.model !== expected) {
      throw new Error(`PARAPET_JUDGE_CALIBRATION: ${calibration} was written for ${settings.calibration.model}, not ${expected}`);
    }
  }
  return settings;
}
