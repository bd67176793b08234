// `parapet logs tail`: follows new request logs by polling POST /v1-beta/logs (docs/cli.md#logs-tail).
// The logs API pages oldest first by timestamp, and a log is written when its request ends with the
// time it started: so each poll re-reads a short window behind the newest log it printed, and
// prints only what it has not printed yet. Times are the service's (its Date header), not this
// machine's, so a clock difference between the two loses nothing.
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { restCall, UnreachableError } from "./api-call.js";
import { missingKeyHelp, platformKey, serviceTarget, type Credential, type ServiceTarget } from "./find-service.js";
import { actionOf, UsageError } from "./usage.js";

/** How far behind the newest printed log each poll looks for logs written late (slow requests). */
const LOOKBACK_MS = 10_000;
const FAR_FUTURE = "9999-12-31T23:59:59Z";
const PAGE = 1000;

interface Log {
  request_uuid: string;
  timestamp: string;
  project_id: string;
  flagged: boolean;
  results: { detector_type: string }[];
}

interface Follow {
  target: ServiceTarget;
  credential: Credential;
  filters: { project_id?: string; flagged_only: boolean; detected_only: boolean };
  intervalMs: number;
  json: boolean;
  signal: AbortSignal;
}

const units: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function sinceOf(value: string | undefined): number {
  if (value === undefined) return 0;
  const m = /^(\d{1,6})(s|m|h|d)$/.exec(value);
  if (!m) throw new UsageError(`--since takes a duration such as 30s, 10m, 2h or 1d; got '${value}'`);
  return Number(m[1]) * units[m[2]];
}

function intervalOf(value: string | undefined): number {
  if (value === undefined) return 2_000;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds < 0.5 || seconds > 60) throw new UsageError(`--interval is seconds between polls, 0.5 to 60; got '${value}'`);
  return Math.round(seconds * 1000);
}

function lineOf(log: Log): string {
  const verdict = log.flagged ? "flagged" : log.results.length > 0 ? "detected" : "passed";
  const detectors = log.results.map((r) => r.detector_type).join(",") || "-";
  return `${log.timestamp}\t${log.request_uuid}\t${log.project_id}\t${verdict}\t${detectors}\n`;
}

/** Prints every log from `from` on that was not printed yet; returns the newest timestamp seen. */
async function readFrom(f: Follow, from: number, seen: Map<string, number>): Promise<number> {
  let newest = from;
  let start = from;
  let offset = 0;
  for (;;) {
    const query = { ...f.filters, start_time: new Date(start).toISOString(), end_time: FAR_FUTURE, limit: PAGE, offset };
    const page = (await restCall(f.target, f.credential, "/v1-beta/logs", query, f.signal)).body as { logs: Log[]; has_more: boolean };
    for (const log of page.logs) {
      const at = Date.parse(log.timestamp);
      newest = Math.max(newest, at);
      if (seen.has(log.request_uuid)) continue;
      seen.set(log.request_uuid, at);
      process.stdout.write(f.json ? JSON.stringify(log) + "\n" : lineOf(log));
    }
    if (!page.has_more || page.logs.length === 0) return newest;
    // Next page from the last timestamp read (its logs are skipped as seen); offset only while one millisecond fills pages.
    const last = Date.parse(page.logs[page.logs.length - 1].timestamp);
    if (last > start) [start, offset] = [last, 0];
    else offset += page.logs.length;
  }
}

/**
 * The service's time when it answered. Its Date header has whole seconds: when this machine's clock
 * agrees with it to within that second, this machine's milliseconds are the better reading.
 */
function serviceNow(sent: number, received: number, date: number | undefined): number {
  if (date === undefined || (received >= date && sent < date + 1000)) return received;
  return date;
}

async function follow(f: Follow, sinceMs: number): Promise<void> {
  // One cheap query first: the key and the logs switch are checked, and the service's clock read.
  const probe = { ...f.filters, start_time: "9999-12-31T23:59:58Z", end_time: FAR_FUTURE, limit: 1 };
  const sent = Date.now();
  const { date } = await restCall(f.target, f.credential, "/v1-beta/logs", probe, f.signal);
  const floor = serviceNow(sent, Date.now(), date?.getTime()) - sinceMs;
  process.stderr.write(`parapet: following the request logs of ${f.target.url} (Ctrl-C stops)\n`);
  const seen = new Map<string, number>();
  let newest = floor;
  let lost = false;
  while (!f.signal.aborted) {
    const from = Math.max(floor, newest - LOOKBACK_MS);
    try {
      newest = Math.max(newest, await readFrom(f, from, seen));
      if (lost) process.stderr.write(`parapet: the service at ${f.target.url} answers again\n`);
      lost = false;
    } catch (err) {
      if (f.signal.aborted) return;
      if (!(err instanceof UnreachableError)) throw err;
      if (!lost) process.stderr.write(`parapet: ${err.message} Retrying every ${f.intervalMs / 1000} s.\n`);
      lost = true;
    }
    for (const [id, at] of seen) if (at < from) seen.delete(id);
    await sleep(f.intervalMs, undefined, { signal: f.signal }).catch(() => {});
  }
}

/** `parapet logs tail`; returns when interrupted (SIGINT, SIGTERM). */
export async function logs(action: string | undefined, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      flagged: { type: "boolean" },
      detected: { type: "boolean" },
      project: { type: "string" },
      since: { type: "string" },
      interval: { type: "string" },
      json: { type: "boolean" },
      url: { type: "string" },
      key: { type: "string" },
    },
  });
  actionOf("logs", action, ["tail"] as const);
  if (positionals.length > 0) throw new UsageError(`logs tail: unexpected argument '${positionals[0]}'`);
  if (values.project === "") throw new UsageError("--project needs a project id");
  const sinceMs = sinceOf(values.since);
  const intervalMs = intervalOf(values.interval);
  const target = serviceTarget(values.url);
  const credential = platformKey(values.key);
  if (!credential) throw new UsageError(`logs tail needs a platform key (read-only is enough): ${missingKeyHelp("platform")}`);

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const filters = { project_id: values.project, flagged_only: values.flagged ?? false, detected_only: values.detected ?? false };
    await follow({ target, credential, filters, intervalMs, json: values.json ?? false, signal: stop.signal }, sinceMs);
  } catch (err) {
    if (!stop.signal.aborted) throw err;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
