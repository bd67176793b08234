// LLM judges over the real service (REST with fetch, the Connect client)
// against a fake OpenAI-compatible judge: each format's verdicts becoming
// detections, the worker hop, dev_info notes, the cache and the metrics, and
// every fault answering 200 within the deadline with the project's fail mode.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GuardService } from "../../../gen/parapet/v1/guard_pb.js";
import { FAIL_MODE_METADATA_KEY } from "../../../src/screening/judges/settings.js";
import { rpcClient, startTestServer, type TestServer } from "../../support/server.js";
import { closedPort, modelAnswer, startFakeJudge, type FakeJudge } from "./fake-judge.js";

const BENIGN = "What is the weather like in spring?";
/** A threat the built-in violence head flags on its own. */
const THREAT = "I am going to kill you tomorrow, I will stab you with my knife.";

let fake: FakeJudge;
beforeAll(async () => {
  fake = await startFakeJudge();
});
afterAll(async () => {
  await fake.close();
});

function judgeEnv(format: string, extra: Record<string, string> = {}): Record<string, string> {
  return { PARAPET_JUDGE_URL: fake.url, PARAPET_JUDGE_MODEL: `fake-${format}`, PARAPET_JUDGE_FORMAT: format, PARAPET_SCREENING_WORKERS: "0", ...extra };
}

async function guard(server: TestServer, body: Record<string, unknown>) {
  const res = await server.rest("POST", "/v2/guard", { breakdown: true, dev_info: true, ...body }, server.screeningKey);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const user = (content: string) => ({ messages: [{ role: "user", content }] });
const item = (body: any, type: string, location = "user::content") => body.breakdown.find((b: any) => b.detector_id === `${type}@${location}`);

/** Each detector's level at message 0 from /v2/guard/results (the verdict is cached, so the judge is not asked again). */
async function levels(server: TestServer, body: Record<string, unknown>): Promise<Record<string, string>> {
  const res = await server.rest("POST", "/v2/guard/results", body, server.screeningKey);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const out: Record<string, string> = {};
  for (const r of res.body.results) if (r.message_id === 0 || r.message_id === undefined) out[r.detector_id] = r.result;
  return out;
}
const notes = (body: any): string[] => body.dev_info.notes;

/** The policy health and draft lint messages for a policy holding one guardrail written in words. */
async function wordsLint(server: TestServer): Promise<{ health: string[]; draft: string[] }> {
  const g = await server.rest("POST", "/v1/custom-guardrails", { name: `words ${Math.random()}`, judge_policy: "Flag anything about pricing." });
  const policy = { name: `p ${Math.random()}`, default_threshold: "l2_very_likely", detectors: [], custom_guardrail_ids: [g.body.id] };
  const created = await server.rest("POST", "/v1/policies", policy);
  const health = await server.rest("POST", "/v2/policies/health", { project_id: await project(server, {}, created.body.id) });
  const draft = await server.rest("POST", "/v2/policies/lint", policy);
  const messages = (items: { message: string }[]) => items.map((i) => i.message).filter((m) => m.includes("written in words"));
  return { health: messages(health.body.lint.errors), draft: messages(draft.body.errors) };
}

async function project(server: TestServer, metadata: Record<string, string>, policyId: string | null = null): Promise<string> {
  const res = await server.rest("POST", "/v1-beta/projects", { name: `p ${Math.random()}`, policy_id: policyId, action: "enforce", project_metadata: metadata });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

describe("llama-guard-3, screened on a worker thread", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(judgeEnv("llama-guard-3", { PARAPET_SCREENING_WORKERS: "1", PARAPET_WORKER_THRESHOLD_CHARS: "1" }));
  });
  afterAll(() => server.close());

  it("a judged category flags its detector, with the level of the judge's probability; model_version names the judge", async () => {
    const body = await guard(server, user(`${BENIGN} <violence>`));
    expect(body.flagged).toBe(true);
    expect(item(body, "moderated_content/violence")).toMatchObject({ detected: true });
    const at = await levels(server, user(`${BENIGN} <violence>`));
    expect(at["moderated_content/violence@user::content"]).toBe("l1_confident");
    expect(at["moderated_content/hate@user::content"]).toBe("l5_unlikely");
    expect(body.dev_info.model_version).toMatch(/\+judge:fake-llama-guard-3$/);
    expect(await guard(server, user(BENIGN))).toMatchObject({ flagged: false });
  });

  it("the Connect client gets the same verdict", async () => {
    const client = rpcClient(GuardService, server, "connect-json", server.screeningKey);
    const res = await client.guard({ messages: [{ role: "user", content: `${BENIGN} <hate>` }], breakdown: true });
    expect(res.flagged).toBe(true);
    expect(res.breakdown.find((b) => b.detectorId === "moderated_content/hate@user::content")?.detected).toBe(true);
  });

  it("max: the built-in head still flags what the judge finds safe", async () => {
    expect(await guard(server, user(THREAT))).toMatchObject({ flagged: true });
  });

  it("judges the conversation a stream opens with, not its deltas", async () => {
    const open = await server.rest("POST", "/v2/guard/streams", user(`${BENIGN} <violence> ${Math.random()}`), server.screeningKey);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ flagged: true, stop: true });
    const quiet = await server.rest("POST", "/v2/guard/streams", user(`${BENIGN} ${Math.random()}`), server.screeningKey);
    expect(quiet.body.flagged).toBe(false);
    const before = fake.received.length;
    const delta = await server.rest("POST", `/v2/guard/streams/${quiet.body.stream_id}/deltas`, { text: "Sure <violence>, here it is." }, server.screeningKey);
    expect(delta.status).toBe(200);
    expect(fake.received.length).toBe(before);
  });

  it("a project's judge fail mode must be open or closed", async () => {
    const res = await server.rest("POST", "/v1-beta/projects", { name: "typo", project_metadata: { [FAIL_MODE_METADATA_KEY]: "shut" } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("must be open or closed");
  });

  it("judges an answer with the prompt it answers; a category no detector reports is a dev_info note", async () => {
    const before = fake.received.length;
    const body = await guard(server, {
      messages: [
        { role: "user", content: "Tell me about my neighbour" },
        { role: "assistant", content: "Here is their home address <privacy>" },
      ],
    });
    expect(body.flagged).toBe(false);
    const sent = fake.received.slice(before).find((b) => b.messages.length === 2)!;
    expect(sent.messages).toEqual([
      { role: "user", content: "Tell me about my neighbour" },
      { role: "assistant", content: "Here is their home address <privacy>" },
    ]);
    expect(notes(body)).toContain("judge judge:fake-llama-guard-3, message 1: flagged S7 (Privacy), which no Parapet detector reports");
  });
});

describe("replace, with a calibration file", () => {
  let server: TestServer;
  beforeAll(async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "judge-cal-")), "parapet-calibration.json");
    const violence = { l1_confident: 2, l2_very_likely: 2, l3_likely: 0.95, l4_less_likely: 0.5 };
    const calibration = { format: "parapet-calibration/1", model: "judge:fake-llama-guard-3", created: new Date().toISOString(), data: { rows: 100, positives: 40 } };
    writeFileSync(file, JSON.stringify({ ...calibration, thresholds: { violence: { default: violence } } }));
    server = await startTestServer(judgeEnv("llama-guard-3", { PARAPET_JUDGE_COMBINE: "replace", PARAPET_JUDGE_CALIBRATION: file }));
  });
  afterAll(() => server.close());

  it("the judge's level comes from the calibrated thresholds, and a judged detector is the judge's alone", async () => {
    expect((await levels(server, user(`${BENIGN} <violence>`)))["moderated_content/violence@user::content"]).toBe("l3_likely");
    const threat = await guard(server, user(THREAT));
    expect(item(threat, "moderated_content/violence")).toMatchObject({ detected: false });
  });
});

describe("llama-guard-4 faults, inline", () => {
  let server: TestServer;
  beforeAll(async () => {
    fake.handler = modelAnswer;
    server = await startTestServer(
      judgeEnv("llama-guard-4", {
        PARAPET_JUDGE_TIMEOUT_MS: "300",
        PARAPET_JUDGE_CONCURRENCY: "2",
        PARAPET_JUDGE_BREAKER_FAILURES: "3",
        PARAPET_JUDGE_BREAKER_COOLDOWN_MS: "300",
      }),
    );
  });
  afterAll(() => server.close());

  it("a verdict is cached: the same text is judged once, and /metrics counts the hit", async () => {
    const text = `${BENIGN} cached ${Math.random()}`;
    const before = fake.received.length;
    await guard(server, user(text));
    await guard(server, user(text));
    expect(fake.received.length).toBe(before + 1);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^parapet_judge_cache_hits_total 1$/m);
    expect(metrics).toMatch(/^parapet_judge_call_duration_seconds_count\{outcome="ok"\} [1-9]/m);
  });

  it("fail-open and fail-closed per project: a 500 and a malformed answer", async () => {
    const closed = await project(server, { [FAIL_MODE_METADATA_KEY]: "closed" });
    for (const reply of [{ status: 500, raw: '{"error":"overloaded"}' }, { content: "I'd rather not say." }]) {
      fake.handler = () => reply;
      const open = await guard(server, user(`${BENIGN} ${Math.random()}`));
      expect(open.flagged).toBe(false);
      expect(notes(open).join("\n")).toMatch(
        /judge judge:fake-llama-guard-4 skipped \(detectors\), message 0: (status: HTTP 500|malformed: Llama Guard).*; fail-open: the built-in detectors decided/,
      );
      const shut = await guard(server, { project_id: closed, ...user(`${BENIGN} ${Math.random()}`) });
      expect(shut.flagged).toBe(true);
      expect(item(shut, "moderated_content/violence")).toMatchObject({ detected: true });
      expect(notes(shut)).toContain("moderated_content/violence, message 0: judge unavailable: fail-closed");
      fake.handler = modelAnswer;
      await guard(server, user(`${BENIGN} ${Math.random()}`)); // a success resets the breaker's count
    }
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^parapet_judge_errors_total\{reason="status"\} 2$/m);
    expect(metrics).toMatch(/^parapet_judge_errors_total\{reason="malformed"\} 2$/m);
  });

  it("a slow answer past PARAPET_JUDGE_TIMEOUT_MS: the request answers without it", async () => {
    fake.handler = (b) => ({ ...modelAnswer(b), hold: true });
    try {
      const started = Date.now();
      const body = await guard(server, user(`${BENIGN} slow ${Math.random()}`));
      // Generous: the bug would wait for the held answer until the 30 s request deadline.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(notes(body).join("\n")).toMatch(/: timeout: no answer within 300 ms \(PARAPET_JUDGE_TIMEOUT_MS\); fail-open/);
    } finally {
      fake.handler = modelAnswer;
      fake.release();
    }
    await guard(server, user(`${BENIGN} ${Math.random()}`));
  });

  it("the circuit opens after repeated failures (no calls while open) and closes once the judge answers again", async () => {
    fake.handler = () => ({ status: 503, raw: "{}" });
    for (let i = 0; i < 3; i++) await guard(server, user(`${BENIGN} failing ${i} ${Math.random()}`));
    const before = fake.received.length;
    const open = await guard(server, user(`${BENIGN} while open ${Math.random()}`));
    expect(fake.received.length).toBe(before);
    expect(notes(open).join("\n")).toMatch(/the judge's circuit is open after repeated failures; fail-open/);
    fake.handler = modelAnswer;
    await vi.waitFor(
      async () => {
        const body = await guard(server, user(`${BENIGN} <violence> ${Math.random()}`));
        expect(body.flagged).toBe(true);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(await (await fetch(`${server.url}/metrics`)).text()).toMatch(/^parapet_judge_skips_total\{reason="breaker_open"\} [1-9]/m);
  });

  it("at most PARAPET_JUDGE_CONCURRENCY calls in flight, every part judged", async () => {
    fake.maxInFlight = 0;
    const body = await guard(server, { messages: Array.from({ length: 6 }, (_, i) => ({ role: "user", content: `${BENIGN} part ${i} ${Math.random()} <hate>` })) });
    expect(fake.maxInFlight).toBeLessThanOrEqual(2);
    expect(body.breakdown.filter((b: any) => b.detector_type === "moderated_content/hate" && b.detected).map((b: any) => b.message_id)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe("a judge slower than the request's deadline", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(judgeEnv("llama-guard-3", { PARAPET_REQUEST_TIMEOUT_MS: "3000", PARAPET_JUDGE_TIMEOUT_MS: "60000" }));
    await guard(server, user(BENIGN)); // the first request's one-off costs are not what this measures
  });
  afterAll(() => server.close());

  it("answers 200 within the deadline, saying the judge was skipped at the deadline", async () => {
    fake.handler = (b) => ({ ...modelAnswer(b), hold: true });
    try {
      const started = Date.now();
      // 200, not the 504 the request would get at its deadline had the judge's wait not ended before it.
      const body = await guard(server, user(`${BENIGN} ${Math.random()}`));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(notes(body).join("\n")).toMatch(/: deadline: the request's deadline came before the judge answered; fail-open/);
    } finally {
      fake.handler = modelAnswer;
      fake.release();
    }
  });
});

describe("a judge on a closed port, the service failing closed", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ...judgeEnv("llama-guard-3"),
      PARAPET_JUDGE_URL: `http://127.0.0.1:${await closedPort()}/v1`,
      PARAPET_JUDGE_FAIL_MODE: "closed",
    });
  });
  afterAll(() => server.close());

  it("flags under the service's mode; a project whose metadata says open is not flagged", async () => {
    const shut = await guard(server, user(BENIGN));
    expect(shut.flagged).toBe(true);
    expect(notes(shut).join("\n")).toMatch(/: unreachable: 127\.0\.0\.1:\d+: ECONNREFUSED; fail-closed: flagged/);
    const open = await project(server, { [FAIL_MODE_METADATA_KEY]: "open" });
    expect(await guard(server, { project_id: open, ...user(BENIGN) })).toMatchObject({ flagged: false });
  });
});

describe("shieldgemma and granite-guardian: one call per mapped harm or risk", () => {
  it("shieldgemma: Dangerous Content flags violence, weapons and self_harm at P(Yes)'s level", async () => {
    const server = await startTestServer(judgeEnv("shieldgemma"));
    try {
      const at = await levels(server, user(`${BENIGN} <weapons>`));
      for (const t of ["violence", "weapons", "self_harm"]) expect(at[`moderated_content/${t}@user::content`]).toBe("l2_very_likely");
      expect(at["moderated_content/hate@user::content"]).toBe("l5_unlikely");
      const guidelines = fake.received.slice(-3).map((b) => b.chat_template_kwargs?.guideline ?? "");
      expect(guidelines.filter((g) => g.startsWith('"No Dangerous Content"'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("granite-guardian: jailbreak flags prompt_attack", async () => {
    const server = await startTestServer(judgeEnv("granite-guardian"));
    try {
      expect(await guard(server, user(`${BENIGN} <jailbreak>`))).toMatchObject({ flagged: true });
      expect((await levels(server, user(`${BENIGN} <jailbreak>`)))["prompt_attack@user::content"]).toBe("l2_very_likely");
    } finally {
      await server.close();
    }
  });
});

describe("gpt-oss-safeguard and custom guardrails written in words", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(judgeEnv("gpt-oss-safeguard"));
  });
  afterAll(() => server.close());

  it("Parapet's policy: the category named in the JSON answer, at the fixed level without logprobs", async () => {
    const at = await levels(server, user(`${BENIGN} <hate>`));
    expect(at["moderated_content/hate@user::content"]).toBe("l2_very_likely");
    expect(at["moderated_content/violence@user::content"]).toBe("l5_unlikely");
  });

  it("a guardrail in words flags as a custom guardrail, with its labels on the whole part", async () => {
    const created = await server.rest("POST", "/v1/custom-guardrails", {
      name: "competitor pricing",
      judge_policy: "Flag requests for our competitors' pricing.",
      labels: ["competitors"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toMatchObject({ patterns: [], judge_policy: "Flag requests for our competitors' pricing." });
    const policy = await server.rest("POST", "/v1/policies", {
      name: `p ${Math.random()}`,
      default_threshold: "l2_very_likely",
      detectors: [],
      custom_guardrail_ids: [created.body.id],
    });
    const projectId = await project(server, {}, policy.body.id);
    const content = "What is Acme's pricing for the pro plan?";
    const body = await guard(server, { project_id: projectId, payload: true, ...user(content) });
    expect(body.flagged).toBe(true);
    expect(body.payload).toEqual([{ start: 0, end: content.length, text: content, detector_type: "custom_guardrail", labels: ["competitors"], message_id: 0 }]);
    expect(fake.received.at(-1)!.messages[0].content).toMatch(/^Flag requests for our competitors' pricing\.\n\n## OUTPUT/);
    expect(await guard(server, { project_id: projectId, ...user(BENIGN) })).toMatchObject({ flagged: false });
    const results = await server.rest("POST", "/v2/guard/results", { project_id: projectId, ...user(content) }, server.screeningKey);
    expect(results.body.results).toEqual([expect.objectContaining({ detector_type: "custom_guardrail", custom_matched: true, result: "l1_confident" })]);
  });

  it("the policy health and draft lint have nothing to say of a guardrail in words", async () => {
    expect(await wordsLint(server)).toEqual({ health: [], draft: [] });
  });

  it("a guardrail needs a pattern or a policy in words", async () => {
    const res = await server.rest("POST", "/v1/custom-guardrails", { name: "nothing" });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(/unless judge_policy gives the guardrail in words/);
  });
});

it("with a judge whose format does not read policies in words, the lint warns of a guardrail written in words", async () => {
  const server = await startTestServer(judgeEnv("llama-guard-3"));
  try {
    const { health, draft } = await wordsLint(server);
    expect(health).toEqual([expect.stringMatching(/only a gpt-oss-safeguard judge applies, and the configured judge's format does not read it; it screens nothing$/)]);
    expect(draft).toEqual(health);
  } finally {
    await server.close();
  }
});

it("without a judge, a guardrail written in words is not applied, and dev_info says so", async () => {
  const server = await startTestServer({ PARAPET_SCREENING_WORKERS: "0" });
  try {
    const g = await server.rest("POST", "/v1/custom-guardrails", { name: "words", judge_policy: "Flag anything about pricing." });
    const policy = await server.rest("POST", "/v1/policies", { name: "p", default_threshold: "l2_very_likely", detectors: [], custom_guardrail_ids: [g.body.id] });
    const body = await guard(server, { project_id: await project(server, {}, policy.body.id), ...user("pricing?") });
    expect(body.flagged).toBe(false);
    expect(notes(body)).toContain(`custom guardrail ${g.body.id}: written in words, which needs a gpt-oss-safeguard judge (PARAPET_JUDGE_URL); not applied`);
    const { health, draft } = await wordsLint(server);
    expect(health).toEqual([expect.stringMatching(/only a gpt-oss-safeguard judge applies, and no judge is configured \(PARAPET_JUDGE_URL\); it screens nothing$/)]);
    expect(draft).toEqual(health);
  } finally {
    await server.close();
  }
});
