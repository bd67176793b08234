// `npm run bench:guard`: POST /v2/guard on a real service (embedded engine,
// default policy = every detector, request logs on) over HTTP and gRPC,
// sequentially and at 64 connections, beside the no-op POST /v1/ping of the
// same server. Prints p50/p95/p99 latency, requests/s and the server's memory.
//
// Every screening request carries a text of its own (seeded, so runs are
// comparable): detectors cache features by text, and a benchmark that sends
// one body measures the cache (docs/operations.md#benchmark-figures). The one
// scenario that repeats a body is printed apart, labelled as cache hits.
//
// The figures are the running service's: V8 takes a few thousand requests to
// optimise the detectors' code. The run starts with the cold start, printed
// apart: a fresh service process, without and with its start-up warm-up
// (PARAPET_WARMUP_MS, docs/operations.md#warm-up), answers its first 1,000
// sequential requests after /readyz. The measured service then warms up with
// requests before measuring. `--cold-start` runs the cold start alone.
import { readFile } from "node:fs/promises";
import http from "node:http";
import { cpus } from "node:os";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GuardService } from "../gen/parapet/v1/guard_pb.js";
import { conversation } from "./conversation.js";
import { percentile } from "./percentile.js";
import { post, startService } from "./service.js";
import { threadCpuMs } from "./thread-cpu.js";

const KEY = "psk_bench_key_0000000000000000000000000000";
const quick = process.argv.includes("--quick");
const coldOnly = process.argv.includes("--cold-start");

async function rssMb(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** Where the CPU of `count` requests went: the server's main thread, its other threads (screening workers, GC, I/O), the load generator. */
async function cpuPerRequest(pid: number, count: number, run: () => Promise<void>): Promise<string> {
  const before = await threadCpuMs(pid);
  const self = process.cpuUsage();
  await run();
  const after = await threadCpuMs(pid);
  const used = process.cpuUsage(self);
  let main = 0;
  let others = 0;
  for (const [tid, ms] of after) {
    const d = ms - (before.get(tid) ?? 0);
    if (tid === pid) main += d;
    else others += d;
  }
  const f = (ms: number) => (ms / count).toFixed(2);
  return `server main thread ${f(main)} ms, other server threads ${f(others)} ms (screening workers, GC, I/O), load generator ${f((used.user + used.system) / 1000)} ms`;
}

/** The main thread's V8 heap, from the service's own /metrics. */
async function heapMb(port: number): Promise<{ used: number; total: number; external: number }> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  const mb = (name: string) => Number(new RegExp(`^parapet_${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN) / 2 ** 20;
  return { used: mb("nodejs_heap_size_used_bytes"), total: mb("nodejs_heap_size_total_bytes"), external: mb("nodejs_external_memory_bytes") };
}

interface Result {
  name: string;
  count: number;
  seconds: number;
  latencies: number[];
}

function line(r: Result): string {
  const s = [...r.latencies].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(2).padStart(8);
  return `${r.name.padEnd(44)} ${String(r.count).padStart(6)} ${f(percentile(s, 50))} ${f(percentile(s, 95))} ${f(percentile(s, 99))} ${(r.count / r.seconds).toFixed(0).padStart(8)}`;
}

/** `count` requests over `concurrency` connections, each connection sending its next request when the last one answered. */
async function drive(name: string, concurrency: number, count: number, send: (i: number) => Promise<number>): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) latencies.push(await send(next++));
    }),
  );
  return { name, count, seconds: (performance.now() - started) / 1000, latencies };
}

let seed = 1;

/**
 * A conversation no other request of the run carries: its own sentences, and
 * its digits (phone numbers, ticket numbers) redrawn, so neither the text
 * caches nor the per-candidate caches (phone numbers) see it twice.
 */
function distinctMessages(chars: number): { role: string; content: string }[] {
  const s = seed++;
  let x = s * 2654435761;
  const digit = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return String(x % 10);
  };
  return conversation(chars, s).map((m) => ({ ...m, content: m.content.replace(/\d/g, digit) }));
}

/** `count` distinct request bodies of `chars` characters, generated before the clock starts. */
function distinctBodies(chars: number, count: number): string[] {
  return Array.from({ length: count }, () => JSON.stringify({ messages: distinctMessages(chars) }));
}

/** Prints the figures docs/operations.md records. */
function report(
  results: Result[],
  cold: Result[],
  cached: Result[],
  cpu1k: string,
  mem: Awaited<ReturnType<typeof rssMb>>,
  heap: Awaited<ReturnType<typeof heapMb>>,
): void {
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; server and load generator share the machine`);
  console.log(`${"scenario".padEnd(44)} ${"count".padStart(6)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"req/s".padStart(8)}`);
  for (const r of results) console.log(line(r));
  console.log("cold start, not the steady state (a fresh process's first requests after /readyz, HTTP guard 1000 chars, sequential):");
  for (const r of cold) console.log(line(r));
  console.log("cache hits, not a screening figure (one body repeated, the detectors' text caches answer):");
  for (const r of cached) console.log(line(r));
  const rps = (name: string) => {
    const r = results.find((x) => x.name === name)!;
    return r.count / r.seconds;
  };
  console.log(
    `screening/no-op throughput ratio at 1000 chars, 64 connections: ${(rps("HTTP guard 1000 chars, 64 connections") / rps("HTTP ping  1000 chars, 64 connections")).toFixed(2)}`,
  );
  console.log(`CPU per request at 1000 chars, 64 connections: ${cpu1k}`);
  console.log(
    `server memory: rss ${mem.rss.toFixed(0)} MB, peak ${mem.peak.toFixed(0)} MB; main thread heap ${heap.used.toFixed(0)} MB used of ${heap.total.toFixed(0)} MB, external ${heap.external.toFixed(0)} MB`,
  );
}

/**
 * The first requests after /readyz of a fresh service process, with its start-up warm-up as
 * `warmUpMs` says ("0": none); the time to readiness includes the process start and the warm-up.
 */
async function coldStart(label: string, warmUpMs: string, bodies: string[]): Promise<Result> {
  const started = performance.now();
  const service = await startService({ PARAPET_BOOTSTRAP_SCREENING_KEY: KEY, PARAPET_WARMUP_MS: warmUpMs });
  const ready = ((performance.now() - started) / 1000).toFixed(1);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const name = `first ${bodies.length} after /readyz, ${label} (ready in ${ready} s)`;
    return await drive(name, 1, bodies.length, (i) => post(agent, service.port, "/v2/guard", bodies[i], KEY));
  } finally {
    agent.destroy();
    await service.stop();
  }
}

/** 1,000-character requests, sequential, on two fresh processes: without the start-up warm-up, then with its default. */
async function coldStarts(count: number): Promise<Result[]> {
  // The same bodies for both: each process meets them for the first time.
  const first = distinctBodies(1_000, count);
  return [await coldStart("warm-up off", "0", first), await coldStart("default warm-up", "", first)];
}

async function main() {
  const scale = quick ? 0.1 : 1;
  const n = (x: number) => Math.max(10, Math.round(x * scale));
  // Before the measured service starts, so that nothing else runs beside them.
  const cold = await coldStarts(n(1_000));
  if (coldOnly) {
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; server and load generator share the machine`);
    console.log(
      `${"cold start, HTTP guard 1000 chars, sequential".padEnd(44)} ${"count".padStart(6)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"req/s".padStart(8)}`,
    );
    for (const r of cold) console.log(line(r));
    return;
  }
  const service = await startService({ PARAPET_BOOTSTRAP_SCREENING_KEY: KEY, LOG_LEVEL: "info" });
  const { child, port } = service;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const results: Result[] = [];
  const cached: Result[] = [];
  try {
    // Warm-up to the steady state (p95 per 250 requests stops falling after 2,000 to 3,000 requests).
    const warm = distinctBodies(1_000, n(3_000));
    await drive("warm-up", 8, warm.length, (i) => post(agent, port, "/v2/guard", warm[i], KEY));

    for (const [chars, seqCount] of [
      [1_000, 2000],
      [10_000, 400],
      [50_000, 100],
    ] as const) {
      const bodies = distinctBodies(chars, n(seqCount));
      results.push(await drive(`HTTP guard ${chars} chars, sequential`, 1, bodies.length, (i) => post(agent, port, "/v2/guard", bodies[i], KEY)));
      results.push(await drive(`HTTP ping  ${chars} chars, sequential`, 1, bodies.length, (i) => post(agent, port, "/v1/ping", bodies[i], KEY)));
    }
    const many1k = distinctBodies(1_000, n(10_000));
    const cpu1k = await cpuPerRequest(child.pid!, many1k.length, async () => {
      results.push(await drive("HTTP guard 1000 chars, 64 connections", 64, many1k.length, (i) => post(agent, port, "/v2/guard", many1k[i], KEY)));
    });
    results.push(await drive("HTTP ping  1000 chars, 64 connections", 64, many1k.length, (i) => post(agent, port, "/v1/ping", many1k[i], KEY)));
    const many10k = distinctBodies(10_000, n(2_000));
    results.push(await drive("HTTP guard 10000 chars, 64 connections", 64, many10k.length, (i) => post(agent, port, "/v2/guard", many10k[i], KEY)));

    // Small requests beside large ones: does a 50k-character screening stall the rest?
    const big = distinctBodies(50_000, 64);
    let stop = false;
    let b = 0;
    const background = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) await post(agent, port, "/v2/guard", big[b++ % big.length], KEY);
      }),
    );
    const beside = distinctBodies(1_000, n(2_000));
    results.push(await drive("HTTP guard 1000 chars, 16 conns + 4x50k beside", 16, beside.length, (i) => post(agent, port, "/v2/guard", beside[i], KEY)));
    stop = true;
    await background;

    // The same body every time: what the text caches answer. Not a screening figure.
    const same = JSON.stringify({ messages: distinctMessages(1_000) });
    cached.push(await drive("HTTP guard 1000 chars, 64 conns, SAME text", 64, n(10_000), () => post(agent, port, "/v2/guard", same, KEY)));

    const grpc = createClient(
      GuardService,
      createGrpcTransport({ baseUrl: `http://127.0.0.1:${port}`, interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${KEY}`), next(req))] }),
    );
    const grpcMessages = Array.from({ length: n(12_000) }, () => distinctMessages(1_000));
    const grpcCall = (offset: number) => async (i: number) => {
      const t = performance.now();
      await grpc.guard({ messages: grpcMessages[(offset + i) % grpcMessages.length] });
      return performance.now() - t;
    };
    results.push(await drive("gRPC guard 1000 chars, sequential", 1, n(2_000), grpcCall(0)));
    results.push(await drive("gRPC guard 1000 chars, 64 streams", 64, n(10_000), grpcCall(n(2_000))));

    report(results, cold, cached, cpu1k, await rssMb(child.pid!), await heapMb(port));
  } finally {
    agent.destroy();
    await service.stop();
  }
}

await main();
