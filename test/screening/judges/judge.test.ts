// The judge's calls against a fake OpenAI-compatible server: what goes on the
// wire, and every fault settling by the deadline as a skip with its reason —
// malformed answers, 500s, a closed port, a slow answer past the timeout or the
// budget — the breaker, the cache, the concurrency limit, and a server that
// refuses logprobs.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CircuitBreaker } from "../../../src/screening/judges/breaker.js";
import { Judge, JudgeSkip, type JudgeObserver } from "../../../src/screening/judges/judge.js";
import { JUDGE_DEFAULTS, type JudgeSettings } from "../../../src/screening/judges/settings.js";
import { closedPort, modelAnswer, startFakeJudge, type FakeJudge } from "./fake-judge.js";

function settings(url: string, over: Partial<JudgeSettings> = {}): JudgeSettings {
  return { ...JUDGE_DEFAULTS, url, model: "llama-guard3:1b", format: "llama-guard-3", ...over };
}

function recorder() {
  const seen = { calls: [] as string[], skips: [] as string[], hits: 0, logs: [] as string[] };
  const observer: JudgeObserver = {
    call: (_s, outcome) => seen.calls.push(outcome),
    skip: (reason) => seen.skips.push(reason),
    cacheHit: () => seen.hits++,
    log: (_level, fields, message) => seen.logs.push(`${message} ${JSON.stringify(fields)}`),
  };
  return { seen, observer };
}

const prompt = (text: string) => ({ messages: [{ role: "user" as const, content: text }], maxTokens: 20, covers: ["S1"] });
const soon = (ms = 5_000) => Date.now() + ms;

let fake: FakeJudge;
let judge: Judge | undefined;
beforeEach(async () => {
  fake = await startFakeJudge();
});
afterEach(async () => {
  judge?.close();
  judge = undefined;
  await fake.close();
});

describe("a call", () => {
  it("posts the model, the messages, temperature 0 and asks for logprobs, with the API key", async () => {
    const { observer, seen } = recorder();
    judge = new Judge(settings(fake.url, { apiKey: "sk-test" }), observer);
    const v = await judge.verdict(prompt("<violence>"), soon());
    expect(v).toEqual({ unsafe: true, flagged: ["S1"], probability: expect.closeTo(0.99, 6) });
    expect(fake.received[0]).toMatchObject({ model: "llama-guard3:1b", temperature: 0, max_tokens: 20, logprobs: true, top_logprobs: 5, stream: false });
    expect(fake.authorizations).toEqual(["Bearer sk-test"]);
    expect(seen.calls).toEqual(["ok"]);
  });

  it("answers the same call from the cache, and joins an identical call in flight", async () => {
    const { observer, seen } = recorder();
    judge = new Judge(settings(fake.url), observer);
    await judge.verdict(prompt("hello"), soon());
    await judge.verdict(prompt("hello"), soon());
    expect(fake.received).toHaveLength(1);
    expect(seen.hits).toBe(1);
    fake.handler = (b) => ({ ...modelAnswer(b), hold: true });
    const both = Promise.all([judge.verdict(prompt("other"), soon()), judge.verdict(prompt("other"), soon())]);
    await vi.waitFor(() => expect(fake.inFlight).toBe(1));
    fake.release();
    await both;
    expect(fake.received).toHaveLength(2);
  });
});

describe("faults settle as skips with their reason", () => {
  async function skipOf(p: Promise<unknown>): Promise<JudgeSkip> {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(JudgeSkip);
    return err as JudgeSkip;
  }

  it("a malformed answer, an answer that is not JSON, a 500", async () => {
    const { observer, seen } = recorder();
    judge = new Judge(settings(fake.url), observer);
    fake.handler = () => ({ content: "Sure! Here is a poem." });
    expect((await skipOf(judge.verdict(prompt("a"), soon()))).message).toMatch(/^malformed: Llama Guard answers 'safe' or 'unsafe'/);
    fake.handler = () => ({ raw: "<html>oops</html>" });
    expect((await skipOf(judge.verdict(prompt("b"), soon()))).message).toMatch(/^malformed: the answer is not JSON/);
    fake.handler = () => ({ status: 500, raw: '{"error":"CUDA out of memory"}' });
    expect((await skipOf(judge.verdict(prompt("c"), soon()))).message).toMatch(/^status: HTTP 500: \{"error":"CUDA out of memory"\}/);
    expect(seen.calls).toEqual(["malformed", "malformed", "status"]);
    expect(seen.skips).toEqual(["error", "error", "error"]);
    // The cause goes to the log, without the unreadable answer's words (those only at debug level).
    expect(seen.logs.filter((l) => l.startsWith("judge call failed"))).toHaveLength(3);
    expect(seen.logs.join("\n")).not.toMatch(/poem.*reason/);
  });

  it("a closed port", async () => {
    const { observer } = recorder();
    judge = new Judge(settings(`http://127.0.0.1:${await closedPort()}/v1`), observer);
    expect((await skipOf(judge.verdict(prompt("a"), soon()))).message).toMatch(/^unreachable: 127\.0\.0\.1:\d+: ECONNREFUSED/);
  });

  it("a slow answer: past the per-call timeout, or past the request's budget, whichever comes first", async () => {
    const { observer, seen } = recorder();
    judge = new Judge(settings(fake.url, { timeoutMs: 100 }), observer);
    fake.handler = (b) => ({ ...modelAnswer(b), hold: true });
    const started = Date.now();
    expect((await skipOf(judge.verdict(prompt("a"), soon(60_000)))).message).toMatch(/^timeout: no answer within 100 ms/);
    // Generous bound: the bug would wait for the held answer, which never comes.
    expect(Date.now() - started).toBeLessThan(5_000);
    judge.close();
    judge = new Judge(settings(fake.url, { timeoutMs: 60_000 }), observer);
    expect((await skipOf(judge.verdict(prompt("b"), soon(150)))).message).toMatch(/^deadline: the request's deadline came/);
    expect((await skipOf(judge.verdict(prompt("c"), Date.now() - 1))).reason).toBe("deadline");
    expect(seen.calls).toEqual(["timeout", "deadline"]);
  });
});

describe("circuit breaker", () => {
  it("opens after the failures in a row, refuses calls while open, lets one try after the cooldown, closes on its success", async () => {
    let now = 0;
    const b = new CircuitBreaker(2, 1000, () => now);
    expect(b.failure()).toBe(false);
    expect(b.state).toBe("closed");
    expect(b.failure()).toBe(true);
    expect(b.state).toBe("open");
    expect(b.allow()).toBe(false);
    now = 1000;
    expect(b.state).toBe("half_open");
    expect(b.allow()).toBe(true);
    expect(b.allow()).toBe(false); // one trial at a time
    expect(b.failure()).toBe(true); // a failed trial opens it again
    expect(b.allow()).toBe(false);
    now = 2000;
    expect(b.allow()).toBe(true);
    expect(b.success()).toBe(true);
    expect(b.state).toBe("closed");
    expect(b.allow()).toBe(true);
  });

  it("a trial cut short by its request's deadline does not leave the circuit waiting for it", async () => {
    const { observer } = recorder();
    judge = new Judge(settings(fake.url, { breakerFailures: 1, breakerCooldownMs: 50, timeoutMs: 60_000 }), observer);
    fake.handler = () => ({ status: 500, raw: "{}" });
    await judge.verdict(prompt("a"), soon()).catch(() => {});
    expect(judge.breaker.state).toBe("open");
    await vi.waitFor(() => expect(judge!.breaker.state).toBe("half_open"));
    fake.handler = (b) => ({ ...modelAnswer(b), hold: true });
    await expect(judge.verdict(prompt("b"), soon(100))).rejects.toMatchObject({ message: expect.stringMatching(/^deadline:/) });
    fake.handler = modelAnswer;
    fake.release();
    expect(await judge.verdict(prompt("c"), soon())).toMatchObject({ unsafe: false });
    expect(judge.breaker.state).toBe("closed");
  });

  it("over the wire: an open circuit skips without calling the judge, and a good answer after the cooldown closes it", async () => {
    const { observer, seen } = recorder();
    judge = new Judge(settings(fake.url, { breakerFailures: 2, breakerCooldownMs: 200 }), observer);
    fake.handler = () => ({ status: 503, raw: "{}" });
    for (const t of ["a", "b"]) await judge.verdict(prompt(t), soon()).catch(() => {});
    expect(seen.logs.some((l) => l.startsWith("judge circuit opened"))).toBe(true);
    const err = await judge.verdict(prompt("c"), soon()).catch((e: JudgeSkip) => e);
    expect(err).toMatchObject({ reason: "breaker_open" });
    expect(fake.received).toHaveLength(2);
    fake.handler = modelAnswer;
    await vi.waitFor(async () => expect(await judge!.verdict(prompt("d"), soon())).toMatchObject({ unsafe: false }), { timeout: 10_000, interval: 50 });
    expect(judge.breaker.state).toBe("closed");
    expect(seen.logs.some((l) => l.startsWith("judge circuit closed"))).toBe(true);
  });
});

describe("concurrency limit", () => {
  it("keeps at most PARAPET_JUDGE_CONCURRENCY calls in flight; the others wait for a slot, and skip when none frees before the budget", async () => {
    const { observer } = recorder();
    judge = new Judge(settings(fake.url, { concurrency: 2 }), observer);
    fake.handler = (b) => ({ ...modelAnswer(b), hold: true });
    const calls = ["a", "b", "c", "d"].map((t) => judge!.verdict(prompt(t), soon(10_000)));
    await vi.waitFor(() => expect(fake.inFlight).toBe(2));
    expect(judge.limiter.load).toEqual({ active: 2, waiting: 2 });
    fake.release();
    await vi.waitFor(() => expect(fake.received).toHaveLength(4));
    fake.release();
    await Promise.all(calls);
    expect(fake.maxInFlight).toBe(2);
    // Two held calls and no slot before a short budget ends: the third is skipped for want of a slot.
    const held = ["e", "f"].map((t) => judge!.verdict(prompt(t), soon(10_000)));
    await vi.waitFor(() => expect(fake.inFlight).toBe(2));
    await expect(judge.verdict(prompt("g"), soon(100))).rejects.toMatchObject({ reason: "concurrency" });
    fake.release();
    await Promise.all(held);
  });
});

it("a server that refuses logprobs is asked again without them, and not asked for them again", async () => {
  const { observer, seen } = recorder();
  judge = new Judge(settings(fake.url), observer);
  fake.handler = (b) => (b.logprobs ? { status: 400, raw: '{"error":"logprobs is not supported"}' } : { content: "unsafe\nS10" });
  expect(await judge.verdict(prompt("<hate>"), soon())).toEqual({ unsafe: true, flagged: ["S10"], probability: undefined });
  await judge.verdict(prompt("other"), soon());
  expect(fake.received.map((b) => b.logprobs ?? false)).toEqual([true, false, false]);
  expect(seen.logs.filter((l) => l.includes("without them"))).toHaveLength(1);
});
