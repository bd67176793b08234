// `npm run bench:cost`: the CPU one request at the body limit costs the
// service (docs/operations.md#benchmark-figures): 1,000 messages of 900
// characters each (about 0.9 MB, under the default 1 MiB body limit), every
// message a text of its own so no detector cache answers, screened by the
// default policy on the compiled service with request logs on. Two shapes:
// a chat (user and assistant turns) and an agent's run (user turns, tool calls
// and tool results). Prints the CPU of each request by thread (main thread,
// screening workers and the rest), and the latency of small requests sent
// while large ones are screened.
import http from "node:http";
import { cpus } from "node:os";
import { conversation } from "./conversation.js";
import { percentile } from "./percentile.js";
import { post, startService } from "./service.js";
import { threadCpuMs } from "./thread-cpu.js";

const KEY = "psk_bench_key_0000000000000000000000000000";
const MESSAGES = 1_000;
const CHARS = 900;
const RUNS = 8;

let seed = 1;

/** A text of exactly `chars` characters no other message of the run carries (its own sentences and digits). */
function distinctText(chars: number): string {
  const s = seed++;
  let x = s * 2654435761;
  const digit = () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return String(x % 10);
  };
  let text = "";
  for (let k = 0; text.length < chars; k++) text += conversation(chars, s * 7 + k)[0].content.replace(/\d/g, digit) + " ";
  return text.slice(0, chars);
}

function chat(): object[] {
  return Array.from({ length: MESSAGES }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: distinctText(CHARS) }));
}

/** What a fuzzer sends: random letters and digits in words of 1 to 12, no two messages alike. */
function noise(): object[] {
  let x = seed++ * 2654435761;
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0);
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from({ length: MESSAGES }, (_, i) => {
    let content = "";
    while (content.length < CHARS) {
      for (let n = 1 + (next() % 12); n > 0; n--) content += alphabet[next() % alphabet.length];
      content += " ";
    }
    return { role: i % 2 ? "assistant" : "user", content: content.slice(0, CHARS) };
  });
}

/** User turns, tool calls and tool results in turn, each about 900 characters. */
function agentRun(): object[] {
  return Array.from({ length: MESSAGES }, (_, i) => {
    if (i % 3 === 0) return { role: "user", content: distinctText(CHARS) };
    if (i % 3 === 2) return { role: "tool", name: "send_email", tool_call_id: `call_${i - 1}`, content: distinctText(CHARS) };
    const args = JSON.stringify({ to: "alex.morgan@example.org", body: distinctText(CHARS - 50) });
    return { role: "assistant", content: null, tool_calls: [{ id: `call_${i}`, type: "function", function: { name: "send_email", arguments: args } }] };
  });
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** Sequential large requests; the CPU each took on the server, by thread. */
async function cost(name: string, pid: number, agent: http.Agent, port: number, bodies: string[]): Promise<void> {
  const main: number[] = [];
  const other: number[] = [];
  const wall: number[] = [];
  for (const body of bodies) {
    const before = await threadCpuMs(pid);
    wall.push(await post(agent, port, "/v2/guard", body, KEY));
    const after = await threadCpuMs(pid);
    let m = 0;
    let o = 0;
    for (const [tid, ms] of after) (tid === pid ? (x: number) => (m += x) : (x: number) => (o += x))(ms - (before.get(tid) ?? 0));
    main.push(m);
    other.push(o);
  }
  const total = main.map((m, i) => m + other[i]);
  const f = (xs: number[]) => `${median(xs).toFixed(0)} ms (max ${Math.max(...xs).toFixed(0)})`;
  console.log(`${name}, ${(bodies[0].length / 1e6).toFixed(2)} MB: CPU ${f(total)}: main thread ${f(main)}, other threads ${f(other)}; wall ${f(wall)}`);
}

async function main() {
  const service = await startService({ PARAPET_BOOTSTRAP_SCREENING_KEY: KEY, LOG_LEVEL: "warn" });
  const { child, port } = service;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  try {
    console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; ${MESSAGES} messages of ${CHARS} characters, default policy`);
    const chats = Array.from({ length: RUNS + 2 }, () => JSON.stringify({ messages: chat() }));
    const agents = Array.from({ length: RUNS + 2 }, () => JSON.stringify({ messages: agentRun() }));
    const noises = Array.from({ length: RUNS + 2 }, () => JSON.stringify({ messages: noise() }));
    // Two of each first, unmeasured: V8 optimises the detectors' code on the first requests.
    await cost("warm-up", child.pid!, agent, port, [...chats.splice(0, 2), ...agents.splice(0, 2), ...noises.splice(0, 2)]);
    await cost("chat", child.pid!, agent, port, chats);
    await cost("agent run", child.pid!, agent, port, agents);
    await cost("random characters", child.pid!, agent, port, noises);

    // Small requests while large ones are screened: their latency is what the large ones cost everyone else.
    // Two at a time: one organization's large requests queue for the worker, and more would wait past the pool's limit (503).
    const large = Array.from({ length: 2 }, () => JSON.stringify({ messages: chat() }));
    const small = Array.from({ length: 400 }, () => JSON.stringify({ messages: [{ role: "user", content: distinctText(1_000) }] }));
    const alone: number[] = [];
    for (const body of small.slice(0, 200)) alone.push(await post(agent, port, "/v2/guard", body, KEY));
    const beside: number[] = [];
    let running = 0;
    const background = Promise.all(large.map(async (body) => (running++, await post(agent, port, "/v2/guard", body, KEY), running--)));
    for (const body of small.slice(200)) if (running > 0) beside.push(await post(agent, port, "/v2/guard", body, KEY));
    await background;
    const p = (xs: number[], q: number) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        q,
      ).toFixed(1);
    console.log(
      `small requests (1,000 characters), sequential: alone p50 ${p(alone, 50)} ms p95 ${p(alone, 95)} ms; while 2 large ones are screened (${beside.length} requests) p50 ${p(beside, 50)} ms p95 ${p(beside, 95)} ms`,
    );
  } finally {
    agent.destroy();
    await service.stop();
  }
}

await main();
