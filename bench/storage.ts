// npm run bench:storage — figures for docs/storage.md#measured-figures.
//
// 1. acknowledged inserts/s into the logs collection, 1 and 64 concurrent writers;
// 2. a child process loads 1M events and is killed with SIGKILL (no clean close);
// 3. a fresh child recovers the directory (timed), reports resident memory, times
//    logs-style queries, closes cleanly and times the start-up after that.
// Events mirror src/logs/repository.ts (collection, meta fields, indexes, query).
//
// Options: --events N (default 1000000), --dir PATH (default: a temp dir, removed after).

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Collection, Doc } from "../src/storage/collection.js";
import { EmbeddedDatabase } from "../src/storage/embedded/engine.js";
import { percentile } from "./percentile.js";

const ORGS = 20;
const PROJECTS = 5;
const SPAN_MS = 30 * 86_400_000;
const T0 = Date.UTC(2025, 0, 1);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function event(i: number, total: number): Doc {
  const org = i % ORGS;
  const flagged = i % 9 === 0;
  return {
    _id: `0193${i.toString(16).padStart(8, "0")}-7${(i * 7919).toString(16).padStart(3, "0").slice(-3)}-8000-${(i * 104729).toString(16).padStart(12, "0").slice(-12)}`,
    timestamp: new Date(T0 + Math.floor((i / total) * SPAN_MS)),
    meta: { org_id: `org-${org.toString().padStart(4, "0")}`, project_id: `project-${org}-${i % PROJECTS}` },
    policy_id: "policy-default",
    flagged,
    detected: flagged || i % 5 === 0,
    fired: flagged ? ["prompt_attack"] : [],
    families: flagged ? ["prompt_attack"] : ["no_detections"],
    messages: [
      {
        role: "system",
        content: "You are the support assistant of ACME. Answer politely and briefly.",
        content_parts_json: "",
        size: "68",
        index: 0,
        name: "",
        tool_calls: [],
        refusal: "",
        tool_call_id: "",
      },
      {
        role: "user",
        content: `Hello, I cannot log in to account ${i}. Can you reset my password please?`,
        content_parts_json: "",
        size: "70",
        index: 1,
        name: "",
        tool_calls: [],
        refusal: "",
        tool_call_id: "",
      },
    ],
    results: flagged ? [{ detector_type: "prompt_attack", result: "l1_confident" }] : [],
    msg_results: flagged ? [{ detector_type: "prompt_attack", result: "l1_confident", message_id: 1, tool_id: null }] : [],
    event_metadata: `{"user_id":"user-${i % 5000}","session":"s-${i % 977}"}`,
  };
}

async function openLogs(dir: string): Promise<{ db: EmbeddedDatabase; logs: Collection }> {
  const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
  const logs = await db.collection("guard_logs", {
    timeseries: { timeField: "timestamp", metaField: "meta", granularity: "seconds" },
  });
  await logs.createIndex({ name: "org_time", keys: { "meta.org_id": 1, timestamp: 1, _id: 1 } });
  await logs.createIndex({ name: "org_project_time", keys: { "meta.org_id": 1, "meta.project_id": 1, timestamp: 1, _id: 1 } });
  return { db, logs };
}

function rssMb(): number {
  return process.memoryUsage().rss / 2 ** 20;
}

/** Full collections with pauses between: V8 frees ArrayBuffer memory on a background task after a GC. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function throughput(dir: string, writers: number, seconds: number, offset: number): Promise<number> {
  const { db, logs } = await openLogs(dir);
  let n = 0;
  let next = offset;
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      await logs.insertOne(event(next++, 1_000_000));
      n++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: writers }, worker));
  const rate = n / ((performance.now() - started) / 1000);
  await db.close();
  return rate;
}

/** Child: load N events as fast as acknowledged batches allow, then wait to be killed. */
async function load(dir: string, total: number): Promise<void> {
  const { logs } = await openLogs(dir);
  const batch = 500;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      const from = next;
      next = Math.min(total, next + batch);
      const docs: Doc[] = [];
      for (let i = from; i < next; i++) docs.push(event(i, total));
      await logs.insertMany(docs);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  await settle();
  process.stdout.write(`${JSON.stringify({ loaded: total, seconds: (performance.now() - started) / 1000, rssMb: rssMb() })}\n`);
  setInterval(() => undefined, 1 << 30);
}

/** Child: recover, measure, query, close, reopen. */
async function recover(dir: string, total: number): Promise<void> {
  const opened = performance.now();
  const { db, logs } = await openLogs(dir);
  const crashRecoveryMs = performance.now() - opened;
  await settle();
  const rss = rssMb();
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  if (process.env.BENCH_VERBOSE) process.stderr.write(`${JSON.stringify(process.memoryUsage())} ${JSON.stringify(db.recovery)}\n`);
  const count = await logs.countDocuments({});
  const query = async (project: boolean, flaggedOnly: boolean, k: number) => {
    const org = k % ORGS;
    const dayStart = T0 + (k % 29) * 86_400_000;
    const filter: Record<string, unknown> = {
      "meta.org_id": `org-${org.toString().padStart(4, "0")}`,
      timestamp: { $gte: new Date(dayStart), $lt: new Date(dayStart + 86_400_000) },
    };
    if (project) filter["meta.project_id"] = `project-${org}-${k % PROJECTS}`;
    if (flaggedOnly) filter.flagged = true;
    const t = performance.now();
    const page = await logs.find(filter, { sort: { timestamp: 1, _id: 1 }, skip: 0, limit: 101 });
    const ms = performance.now() - t;
    if (page.length === 0) throw new Error("empty page: the bench data does not cover the query");
    return ms;
  };
  const timings: Record<string, { p50: number; p95: number }> = {};
  for (const [name, project, flagged] of [
    ["org + time range", false, false],
    ["org + project + time range", true, false],
    ["org + time range + flagged_only", false, true],
  ] as const) {
    for (let k = 0; k < 20; k++) await query(project, flagged, k); // warm-up (page cache, JIT)
    const ms: number[] = [];
    for (let k = 0; k < 200; k++) ms.push(await query(project, flagged, k * 7 + 3));
    ms.sort((a, b) => a - b);
    timings[name] = { p50: percentile(ms, 50), p95: percentile(ms, 95) };
  }
  await db.close();
  const reopened = performance.now();
  const again = await openLogs(dir);
  const cleanStartMs = performance.now() - reopened;
  await again.db.close();
  process.stdout.write(
    `${JSON.stringify({ count, expected: total, crashRecoveryMs, replayed: db.recovery.replayedRecords, rssMb: rss, heapMb, timings, cleanStartMs })}\n`,
  );
}

function child(args: string[]): { lines: Promise<string[]>; kill: () => void; firstLine: Promise<string> } {
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, ["--expose-gc", "--max-old-space-size=4096", "--import", "tsx", self, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let resolveFirst: (l: string) => void;
  const firstLine = new Promise<string>((r) => (resolveFirst = r));
  let buf = "";
  proc.stdout.on("data", (c: Buffer) => {
    buf += c.toString();
    const parts = buf.split("\n");
    buf = parts.pop()!;
    for (const p of parts) {
      lines.push(p);
      if (lines.length === 1) resolveFirst(p);
    }
  });
  return {
    lines: new Promise((resolve, reject) =>
      proc.on("exit", (code, signal) => (code === 0 || signal === "SIGKILL" ? resolve(lines) : reject(new Error(`child exited ${code}`)))),
    ),
    kill: () => proc.kill("SIGKILL"),
    firstLine,
  };
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  const total = Number(arg("events", "1000000"));
  if (mode === "--load") return load(process.argv[3], total);
  if (mode === "--recover") return recover(process.argv[3], total);

  const own = !process.argv.includes("--dir");
  const base = own ? fs.mkdtempSync(path.join(os.tmpdir(), "parapet-bench-")) : arg("dir", "");
  fs.mkdirSync(base, { recursive: true });
  try {
    console.log(`parapet storage bench: embedded engine, node ${process.version}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? "?"}`);
    console.log(`data directory: ${base}`);
    if (!process.env.BENCH_SKIP_THROUGHPUT) {
      const one = await throughput(path.join(base, "tp1"), 1, 3, 0);
      console.log(`acknowledged inserts/s, 1 writer:   ${one.toFixed(0)}`);
      const many = await throughput(path.join(base, "tp64"), 64, 5, 0);
      console.log(`acknowledged inserts/s, 64 writers: ${many.toFixed(0)}   (target >= 20000)`);
    }

    const dir = path.join(base, "events");
    const loader = child(["--load", dir, "--events", String(total)]);
    const loaded = JSON.parse(await loader.firstLine) as { seconds: number; rssMb: number };
    console.log(
      `loaded ${total} events in ${loaded.seconds.toFixed(1)} s (${(total / loaded.seconds).toFixed(0)}/s, insertMany of 500, 4 writers); loader RSS ${loaded.rssMb.toFixed(0)} MB; killing it with SIGKILL`,
    );
    loader.kill();
    await loader.lines;
    const bytes = fs.readdirSync(dir).reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
    console.log(`data directory size: ${(bytes / 2 ** 20).toFixed(0)} MB`);

    const [line] = await child(["--recover", dir, "--events", String(total)]).lines;
    const r = JSON.parse(line) as {
      count: number;
      crashRecoveryMs: number;
      replayed: number;
      rssMb: number;
      heapMb: number;
      timings: Record<string, { p50: number; p95: number }>;
      cleanStartMs: number;
    };
    if (r.count !== total) throw new Error(`recovered ${r.count} events, expected ${total}`);
    console.log(`recovery after SIGKILL, ${r.count} events: ${(r.crashRecoveryMs / 1000).toFixed(2)} s (snapshot + ${r.replayed} journal records)   (target <= 5 s)`);
    console.log(`resident memory with ${r.count} events (after GC): ${r.rssMb.toFixed(0)} MB, of which JS heap ${r.heapMb.toFixed(0)} MB   (target <= 400 MB)`);
    for (const [name, t] of Object.entries(r.timings)) {
      console.log(`logs query, ${name}, sort by time, limit 100: p50 ${t.p50.toFixed(2)} ms, p95 ${t.p95.toFixed(2)} ms   (target <= 20 ms)`);
    }
    console.log(`start-up after a clean close: ${(r.cleanStartMs / 1000).toFixed(2)} s`);
  } finally {
    if (own) fs.rmSync(base, { recursive: true, force: true });
  }
}

await main();
