// `tsx bench/judges.ts`: what the LLM judge path adds to a screening request
// around the judge's own inference (docs/judges.md#overhead). A fake
// OpenAI-compatible judge in this process answers every call at once (a Llama
// Guard "safe" with logprobs), so the difference between the service with the
// judge and without it is Parapet's part: building the calls, the HTTP round
// trip on loopback, reading the answer, levels and the pre-pass bookkeeping.
// Every request carries a text of its own, so no verdict comes from the cache
// (the judge's call count is printed to show it). Also times the judge client
// alone (one call, no service around it).
//
// `--quick`: fewer requests, for a figure on a busy machine.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Judge } from "../src/screening/judges/judge.js";
import { JUDGE_DEFAULTS } from "../src/screening/judges/settings.js";
import { percentile } from "./percentile.js";
import { startService, type BenchService } from "./service.js";

const quick = process.argv.includes("--quick");
const WARMUP = quick ? 200 : 1_000;
const MEASURED = quick ? 500 : 3_000;
const KEY = "psk_bench_judge_000000000000000000000000000";

const ANSWER = JSON.stringify({
  choices: [
    {
      index: 0,
      message: { role: "assistant", content: "safe" },
      logprobs: {
        content: [
          {
            token: "safe",
            logprob: -0.01,
            top_logprobs: [
              { token: "safe", logprob: -0.01 },
              { token: "unsafe", logprob: -4.6 },
            ],
          },
        ],
      },
      finish_reason: "stop",
    },
  ],
});

/** The fake judge: reads the body, answers at once; counts the calls and the time it spends on each. */
async function fakeJudge(): Promise<{ url: string; calls: () => number; close(): void }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      calls++;
      res.writeHead(200, { "content-type": "application/json" }).end(ANSWER);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, calls: () => calls, close: () => server.close() };
}

/** A user message of its own per request: ordinary support-chat text, a counter making each one distinct. */
function text(i: number): string {
  return `Hi, could you check the invoice for order ${i}? It was charged twice on the ${(i % 28) + 1}th and I would like a refund.`;
}

async function post(port: number, i: number): Promise<number> {
  const body = JSON.stringify({ messages: [{ role: "user", content: text(i) }] });
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/v2/guard`, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

/**
 * Both services at once, one request to each in turn, so that whatever else the machine does at a
 * moment weighs on both alike; the texts differ between the two and from one request to the next.
 */
async function measure(a: BenchService, b: BenchService): Promise<[number[], number[]]> {
  for (let i = 0; i < WARMUP; i++) {
    await post(a.port, i);
    await post(b.port, 1_000_000 + i);
  }
  const ms: [number[], number[]] = [[], []];
  for (let i = WARMUP; i < WARMUP + MEASURED; i++) {
    ms[0].push(await post(a.port, i));
    ms[1].push(await post(b.port, 1_000_000 + i));
  }
  return [ms[0].sort((x, y) => x - y), ms[1].sort((x, y) => x - y)];
}

const fmt = (sorted: number[]) => `p50 ${percentile(sorted, 50).toFixed(2)} ms  p95 ${percentile(sorted, 95).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms`;

const judge = await fakeJudge();
const env = { PARAPET_BOOTSTRAP_SCREENING_KEY: KEY, PARAPET_BOOTSTRAP_PLATFORM_KEY: "ppk_bench_judge_000000000000000000000000000", LOG_LEVEL: "warn" };
try {
  console.log(`POST /v2/guard, one distinct user message per request, default policy; ${WARMUP} warm-up then ${MEASURED} measured per service, alternating`);
  const plain = await startService(env);
  const judged = await startService({ ...env, PARAPET_JUDGE_URL: judge.url, PARAPET_JUDGE_MODEL: "bench", PARAPET_JUDGE_FORMAT: "llama-guard-3" });
  let without: number[], withJudge: number[];
  try {
    [without, withJudge] = await measure(plain, judged);
  } finally {
    await Promise.all([plain.stop(), judged.stop()]);
  }
  console.log(`  without a judge:           ${fmt(without)}`);
  console.log(`  with llama-guard-3 (fake): ${fmt(withJudge)}  (${judge.calls()} judge calls for ${WARMUP + MEASURED} requests: no cache hits)`);
  console.log(
    `  judge path overhead:       p50 +${(percentile(withJudge, 50) - percentile(without, 50)).toFixed(2)} ms  p95 +${(percentile(withJudge, 95) - percentile(without, 95)).toFixed(2)} ms`,
  );

  // The client alone: one call's build, HTTP round trip and parse, in this process.
  const client = new Judge({ ...JUDGE_DEFAULTS, url: judge.url, model: "bench", format: "llama-guard-3" });
  const spec = (i: number) => ({ messages: [{ role: "user" as const, content: text(i) }], maxTokens: 20, covers: ["S1"] });
  for (let i = 0; i < WARMUP; i++) await client.verdict(spec(2_000_000 + i), Date.now() + 5_000);
  const direct: number[] = [];
  for (let i = 0; i < MEASURED; i++) {
    const started = performance.now();
    await client.verdict(spec(3_000_000 + i), Date.now() + 5_000);
    direct.push(performance.now() - started);
  }
  client.close();
  console.log(`  one judge call, client alone (fake in-process): ${fmt(direct.sort((a, b) => a - b))}`);
} finally {
  judge.close();
}
