// `npm run bench:stream`: GuardStream on a real service (the compiled build,
// embedded engine, default detectors, request logs on) over HTTP/2 (gRPC, the
// generated client): 100 concurrent streams, each a simulated model answer
// sent in deltas of up to 200 characters at a fast model's pace. Prints the
// latency each delta adds — the round trip from sending it to its verdict —
// beside an empty delta at the same pace (the transport alone) and beside POST /v2/guard on
// each answer's whole text at the same concurrency (docs/streaming.md#latency).
import { cpus, loadavg } from "node:os";
import { createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GuardService, type GuardStreamRequest } from "../gen/parapet/v1/guard_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GuardStreamRequestSchema } from "../gen/parapet/v1/guard_pb.js";
import { conversation } from "./conversation.js";
import { percentile } from "./percentile.js";
import { startService } from "./service.js";

const KEY = "psk_bench_key_0000000000000000000000000000";
const PLATFORM = "ppk_bench_key_0000000000000000000000000000";
const quick = process.argv.includes("--quick");
const STREAMS = 100;
const ANSWER_CHARS = quick ? 1_500 : 4_000;
/** A fast model's pace: about 100 tokens (400 characters) a second per stream; each delta waits for its characters to be "produced". */
const CHARS_PER_S = 400;

function line(name: string, latencies: number[], seconds: number): string {
  const s = [...latencies].sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(2).padStart(8);
  return `${name.padEnd(48)} ${String(s.length).padStart(7)} ${f(percentile(s, 50))} ${f(percentile(s, 95))} ${f(percentile(s, 99))} ${(s.length / seconds).toFixed(0).padStart(8)}`;
}

/** A model's answer in deltas of 1 to 200 characters (seeded). */
function deltasOf(text: string, seed: number): string[] {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const n = 1 + (x % 200);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The server's per-delta histogram (cumulative counts by upper bound, seconds), from its /metrics. */
async function deltaHistogram(base: string): Promise<Map<number, number>> {
  const text = await fetch(`${base}/metrics`).then((r) => r.text());
  const out = new Map<number, number>();
  for (const m of text.matchAll(/^parapet_stream_delta_duration_seconds_bucket\{le="([^"]+)"\} (\d+)$/gm))
    out.set(m[1] === "+Inf" ? Infinity : Number(m[1]), Number(m[2]));
  return out;
}

/** The bucket bound under which `p` percent of the deltas between two histogram readings fell. */
function histogramPercentile(before: Map<number, number>, after: Map<number, number>, p: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  for (const b of bounds) if ((after.get(b) ?? 0) - (before.get(b) ?? 0) >= (p / 100) * total) return b * 1000;
  return Infinity;
}

/** One stream: open, the deltas one verdict at a time, close. Pushes each delta's round trip in ms. */
async function stream(client: Client<typeof GuardService>, projectId: string, deltas: string[], out: number[], empty = false): Promise<void> {
  type Req = MessageInitShape<typeof GuardStreamRequestSchema>;
  const queue: Req[] = [];
  let wake: (() => void) | null = null;
  let done = false;
  const push = (m: Req) => {
    queue.push(m);
    wake?.();
  };
  async function* requests(): AsyncIterable<Req> {
    for (;;) {
      while (queue.length) yield queue.shift()!;
      if (done) return;
      await new Promise<void>((r) => (wake = r));
      wake = null;
    }
  }
  const answers = client.guardStream(requests() as AsyncIterable<GuardStreamRequest>)[Symbol.asyncIterator]();
  push({ kind: { case: "open", value: { projectId, messages: [{ role: "user", content: "Could you summarize the ticket for me?" }] } } });
  await answers.next();
  for (const text of deltas) {
    await sleep((text.length * 1000) / CHARS_PER_S);
    const t = performance.now();
    push({ kind: { case: "delta", value: { text: empty ? "" : text } } });
    const r = await answers.next();
    out.push(performance.now() - t);
    if ((r.value as { stop?: unknown } | undefined)?.stop) throw new Error("stream stopped: the bench runs in detect mode");
  }
  push({ kind: { case: "close", value: {} } });
  await answers.next();
  done = true;
  (wake as (() => void) | null)?.();
}

async function main() {
  const service = await startService({
    PARAPET_BOOTSTRAP_SCREENING_KEY: KEY,
    PARAPET_BOOTSTRAP_PLATFORM_KEY: PLATFORM,
    LOG_LEVEL: "warn",
    ...(process.env.BENCH_EXTRA_QUEUE ? { PARAPET_SCREENING_QUEUE_PER_ORG: "256" } : {}),
  });
  const { port } = service;
  const base = `http://127.0.0.1:${port}`;
  try {
    // Detect mode: the simulated answers hold e-mails and phone numbers, and every stream must run to its end.
    const project = await fetch(`${base}/v1-beta/projects`, {
      method: "POST",
      headers: { authorization: `Bearer ${PLATFORM}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench-stream", action: "detect" }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const client = createClient(
      GuardService,
      createGrpcTransport({ baseUrl: base, interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${KEY}`), next(req))] }),
    );
    const answers = Array.from({ length: STREAMS * 2 }, (_, i) =>
      conversation(ANSWER_CHARS, 1000 + i)
        .map((m) => m.content)
        .join(" ")
        .slice(0, ANSWER_CHARS),
    );

    // Warm-up: JIT, models, the first journal segment.
    await Promise.all(answers.slice(0, 20).map((a, i) => stream(client, project.id, deltasOf(a, i + 1), [])));

    const load = loadavg()[0];
    const measured = answers.slice(STREAMS);
    const perDelta: number[] = [];
    const histBefore = await deltaHistogram(base);
    let started = performance.now();
    await Promise.all(measured.map((a, i) => stream(client, project.id, deltasOf(a, 7919 + i), perDelta)));
    const streamSeconds = (performance.now() - started) / 1000;
    const histAfter = await deltaHistogram(base);

    const empty: number[] = [];
    started = performance.now();
    await Promise.all(measured.map((a, i) => stream(client, project.id, deltasOf(a, 7919 + i), empty, true)));
    const emptySeconds = (performance.now() - started) / 1000;

    const whole: number[] = [];
    started = performance.now();
    await Promise.all(
      measured.map(async (a) => {
        const t = performance.now();
        await client.guard({
          projectId: project.id,
          messages: [
            { role: "user", content: "Could you summarize the ticket for me?" },
            { role: "assistant", content: a },
          ],
        });
        whole.push(performance.now() - t);
      }),
    );
    const wholeSeconds = (performance.now() - started) / 1000;

    console.log(
      `machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; load average ${load.toFixed(2)} before the run; server and load generator share the machine`,
    );
    console.log(
      `${STREAMS} concurrent GuardStream calls over HTTP/2 (gRPC), answers of ${ANSWER_CHARS} characters, deltas of 1-200 characters at ${CHARS_PER_S} characters/s per stream`,
    );
    console.log(`${"scenario".padEnd(48)} ${"count".padStart(7)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"per s".padStart(8)}`);
    console.log(line("GuardStream delta -> verdict", perDelta, streamSeconds));
    console.log(line("GuardStream empty delta -> verdict (transport)", empty, emptySeconds));
    console.log(line(`/v2/guard (gRPC) on the whole ${ANSWER_CHARS}-char answer`, whole, wholeSeconds));
    const p95 = percentile(
      [...perDelta].sort((a, b) => a - b),
      95,
    );
    const server50 = histogramPercentile(histBefore, histAfter, 50);
    const server95 = histogramPercentile(histBefore, histAfter, 95);
    const server99 = histogramPercentile(histBefore, histAfter, 99);
    console.log(`server time per delta (parapet_stream_delta_duration_seconds, bucket bounds): p50 <= ${server50} ms, p95 <= ${server95} ms, p99 <= ${server99} ms`);
    console.log(`p95 added per delta, server time: <= ${server95} ms (target <= 2 ms): ${server95 <= 2 ? "met" : "NOT met"}; client round trip p95 ${p95.toFixed(2)} ms`);
  } finally {
    await service.stop();
  }
}

await main();
