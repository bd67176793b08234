// `npm run bench:logs`: the logs and analytics endpoints over 1M logged
// requests on the embedded engine (targets: a logs page <= 50 ms; analytics for
// 30 days at P1D or 24 hours at PT1M <= 100 ms), timed over HTTP with the real
// service. The store is filled through the repositories with what 1M screening
// requests leave behind: their logs and their per-minute analytics counters.
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { countersFor, type Rollup } from "../src/analytics/repository.js";
import { startApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { familiesOf, type StoredLog } from "../src/logs/repository.js";
import { createLogger } from "../src/observability/logger.js";

const TOTAL = Number(process.argv[process.argv.indexOf("--events") + 1] || 1_000_000) || 1_000_000;
const KEY = "ppk_bench_logs_key_00000000000000000000000";
const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 1);
const START = END - 30 * DAY;
const PROJECTS = ["project-default", "project-chat", "project-agent"];
const kinds = [[], [], [], ["pii/email"], ["prompt_attack"], ["moderated_content/hate"], ["unknown_links"], ["override_deny"]];

function log(i: number): StoredLog {
  const fired = kinds[i % kinds.length];
  const at = START + Math.floor((i / TOTAL) * (END - START));
  return {
    _id: `0190${i.toString(16).padStart(8, "0")}-7000-8000-${i.toString(16).padStart(12, "0")}`,
    timestamp: new Date(at),
    meta: { org_id: "org-default", project_id: PROJECTS[i % PROJECTS.length] },
    policy_id: "policy-default",
    flagged: fired.length > 0,
    detected: fired.length > 0,
    fired,
    families: familiesOf(fired),
    messages: [
      {
        role: "user",
        content: `Please help me with order ${i}, my e-mail is user${i % 997}@example.com`,
        content_parts_json: "[]",
        size: "60",
        index: 0,
        name: "",
        tool_calls: [],
        refusal: "",
        tool_call_id: "",
      },
    ],
    results: fired.map((t) => ({ detector_type: t, result: "l1_confident" })),
    msg_results: fired.map((t) => ({ detector_type: t, result: "l1_confident", message_id: 0, tool_id: null })),
    event_metadata: "{}",
  };
}

async function timed(n: number, fn: () => Promise<void>): Promise<{ p50: number; p95: number }> {
  await fn();
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50: t[Math.floor(n / 2)], p95: t[Math.floor(n * 0.95)] };
}

const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-bench-logs-"));
const app = await startApp(
  loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    PARAPET_DATA_DIR: dataDir,
    PARAPET_BOOTSTRAP_PLATFORM_KEY: KEY,
    PARAPET_RETENTION_DAYS: "3650",
    PARAPET_RATE_LIMIT_RPS: "0",
  }),
  createLogger("silent"),
);
try {
  const loadStarted = performance.now();
  const rollups = new Map<string, Rollup>();
  const BATCH = 1000;
  for (let from = 0; from < TOTAL; from += BATCH * 4) {
    await Promise.all(
      [0, 1, 2, 3].map(async (w) => {
        const docs: StoredLog[] = [];
        for (let i = from + w * BATCH; i < Math.min(TOTAL, from + (w + 1) * BATCH); i++) docs.push(log(i));
        if (docs.length) await app.repos.logs.logs.insertMany(docs);
        for (const d of docs) {
          for (const period of [60_000, 3_600_000]) {
            const start = Math.floor(d.timestamp.getTime() / period) * period;
            const id = `${period}|org-default|${d.meta.project_id}|${start}`;
            let r = rollups.get(id);
            if (!r)
              rollups.set(
                id,
                (r = {
                  _id: id.slice(id.indexOf("|") + 1),
                  org_id: "org-default",
                  project_id: d.meta.project_id,
                  start: new Date(start),
                  ...countersFor([]),
                  num_requests: 0,
                }),
              );
            for (const [k, v] of Object.entries(countersFor(d.fired))) (r as unknown as Record<string, number>)[k] += v;
          }
        }
      }),
    );
  }
  // The same counter rows record() would have written for these requests.
  for (const [period, target] of [
    ["60000|", app.repos.rollups.minutes],
    ["3600000|", app.repos.rollups.hours],
  ] as const) {
    const rows = [...rollups.entries()].filter(([k]) => k.startsWith(period)).map(([, r]) => r);
    for (let i = 0; i < rows.length; i += 5000) await target.insertMany(rows.slice(i, i + 5000));
  }
  console.log(`loaded ${TOTAL} logs and ${rollups.size} minute and hour counters in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

  const url = `http://127.0.0.1:${app.port}`;
  const post = async (p: string, body: unknown) => {
    const res = await fetch(url + p, { method: "POST", headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const range = { start_time: new Date(START).toISOString(), end_time: new Date(END).toISOString() };
  const day = { start_time: new Date(END - DAY).toISOString(), end_time: new Date(END).toISOString() };
  const scenarios: [string, () => Promise<void>][] = [
    ["logs: 30 days, first page of 100", () => post("/v1-beta/logs", { ...range, limit: 100 })],
    ["logs: 30 days, page of 100 at offset 50,000", () => post("/v1-beta/logs", { ...range, limit: 100, offset: 50_000 })],
    ["logs: one project, 1 day, page of 1000", () => post("/v1-beta/logs", { ...day, project_id: "project-chat", limit: 1000 })],
    ["logs: flagged_only, 30 days, page of 100", () => post("/v1-beta/logs", { ...range, flagged_only: true, limit: 100 })],
    ["logs: detector_types data_leakage, page of 100", () => post("/v1-beta/logs", { ...range, detector_types: ["data_leakage"], limit: 100 })],
    ["analytics: 30 days at P1D", () => post("/v1-beta/analytics", { ...range, resolution: "P1D" })],
    ["analytics: 24 hours at PT1M", () => post("/v1-beta/analytics", { ...day, resolution: "PT1M" })],
    ["analytics: 30 days at PT1H", () => post("/v1-beta/analytics", { ...range, resolution: "PT1H" })],
  ];
  console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; over HTTP, same process`);
  console.log(`${"query".padEnd(48)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}`);
  for (const [name, fn] of scenarios) {
    const { p50, p95 } = await timed(30, fn);
    console.log(`${name.padEnd(48)} ${p50.toFixed(2).padStart(8)} ${p95.toFixed(2).padStart(8)}`);
  }
} finally {
  await app.close();
  await rm(dataDir, { recursive: true, force: true });
}
