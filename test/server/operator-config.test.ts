// Configuration as operators meet it: the documented tables (README.md, docs/configuration.md,
// docs/operations.md) say what src/config.ts does, and a wrong value stops the compiled service with
// one line naming the variable and what it accepts, no stack trace, exit status 2.
import fs from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimiter } from "../../src/auth/rate-limit.js";
import { loadConfig } from "../../src/config.js";
import { privateBuild, runUntilExit, type PrivateBuild } from "./operator-build.js";

const root = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");
const configSource = read("src/config.ts");

interface Row {
  file: string;
  section: string;
  names: string[];
  cells: Record<string, string>;
}

/** Markdown tables whose first column is `variable`, each row with the `## ` section it is in. */
function variableRows(file: string): Row[] {
  const rows: Row[] = [];
  let section = "";
  let header: string[] | undefined;
  for (const line of read(file).split("\n")) {
    if (line.startsWith("## ")) section = line.slice(3).trim();
    if (!line.startsWith("|")) {
      header = undefined;
      continue;
    }
    const cells = line
      .slice(1, line.trimEnd().length - 1)
      .split("|")
      .map((c) => c.trim());
    if (!header) {
      header = cells;
      continue;
    }
    if (header[0] !== "variable" || /^-+$/.test(cells[0])) continue;
    const names = [...cells[0].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]);
    rows.push({ file, section, names, cells: Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])) });
  }
  return rows;
}

// The sections whose variables the service reads; the others list settings of the training scripts, benchmarks and examples.
const serviceRows = [
  ...variableRows("README.md").filter((r) => r.section === "Configuration"),
  ...variableRows("docs/configuration.md").filter((r) => ["Service", "Detectors", "Build information"].includes(r.section)),
  ...variableRows("docs/operations.md").filter((r) => r.section === "Limits"),
];

// Defaults applied where the setting is used rather than by loadConfig: checked to exist only.
const defaultElsewhere = new Set([
  "PARAPET_BOOTSTRAP_KEYS_FILE", // depends on the engine: covered by test/auth/bootstrap.test.ts
  "PARAPET_GIT_REVISION", // src/guard/build-info.ts asks git
  "PARAPET_GIT_TIMESTAMP",
]);

/** What each documented default means as a value of the variable; undefined: "unset". */
function documentedDefaults(row: Row): (string | undefined)[] {
  const cell = row.cells.default;
  if (/^unset\b/.test(cell)) return row.names.map(() => undefined);
  if (cell === "CPU cores - 1, at least 1") return [String(Math.max(1, availableParallelism() - 1))];
  // `8080`, `0.0.0.0` (README) or 5000 / 10000 (operations.md): one value per variable, in order.
  const ticked = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const values = ticked.length > 0 ? ticked : cell.split("/").map((v) => v.trim());
  return row.names.length === 1 ? [values[0]] : values;
}

const base = loadConfig({});
// Settings another one bounds (PARAPET_HEADERS_TIMEOUT_MS <= PARAPET_RECEIVE_TIMEOUT_MS): the range of one is tried with the other out of the way.
const companions: Record<string, Record<string, string>> = {
  PARAPET_HEADERS_TIMEOUT_MS: { PARAPET_RECEIVE_TIMEOUT_MS: "3600000" },
  PARAPET_RECEIVE_TIMEOUT_MS: { PARAPET_HEADERS_TIMEOUT_MS: "10" },
  PARAPET_MAX_CONNECTIONS_PER_ADDRESS: { PARAPET_MAX_CONNECTIONS: "1000000" },
};

describe("documented configuration tables", () => {
  it("found the tables", () => {
    const files = new Set(serviceRows.map((r) => r.file));
    expect([...files].sort()).toEqual(["README.md", "docs/configuration.md", "docs/operations.md"]);
    expect(serviceRows.length).toBeGreaterThan(30);
  });

  it.each(serviceRows.flatMap((r) => r.names.map((name) => [`${r.file}: ${name}`, name] as const)))("%s is read by src/config.ts", (_, name) => {
    expect(configSource.includes(`"${name}"`) || configSource.includes(`env.${name}`)).toBe(true);
  });

  it.each(serviceRows.map((r) => [`${r.file}: ${r.names.join(", ")}`, r] as const))("%s: documented default and range are what loadConfig does", (_, row) => {
    const defaults = documentedDefaults(row);
    expect(defaults).toHaveLength(row.names.length);
    row.names.forEach((name, i) => {
      const value = defaults[i];
      if (defaultElsewhere.has(name) || value === undefined) return;
      // Setting the documented default changes nothing.
      expect(loadConfig({ [name]: value }), `${name}=${value}`).toEqual(base);
      // A list of words (`on` or `off`): each is accepted, and a word not in it is refused.
      const words = [...(row.cells.range ?? "").matchAll(/`([a-z]+)`/g)].map((m) => m[1]);
      if (words.length > 1 && /^(`[a-z]+`(, | or |$))+$/.test(row.cells.range)) {
        for (const word of words) expect(() => loadConfig({ [name]: word }), `${name}=${word}`).not.toThrow();
        expect(() => loadConfig({ [name]: "unlisted" }), `${name}=unlisted`).toThrow(name);
      }
      const range = /^(\d+)-(\d+)\b/.exec(row.cells.range ?? "");
      if (!range) return;
      const [min, max] = [Number(range[1]), Number(range[2])];
      const env = companions[name] ?? {};
      for (const ok of [min, max]) expect(() => loadConfig({ ...env, [name]: String(ok) }), `${name}=${ok}`).not.toThrow();
      for (const bad of [min - 1, max + 1]) expect(() => loadConfig({ ...env, [name]: String(bad) }), `${name}=${bad}`).toThrow(name);
      // The variable is read: another value in range changes the configuration.
      const other = Number(value) === min ? max : min;
      expect(loadConfig({ ...env, [name]: String(other) }), `${name}=${other}`).not.toEqual(loadConfig({ ...env, [name]: value }));
    });
  });

  it("every variable src/config.ts reads is in docs/configuration.md", () => {
    const read = new Set([...configSource.matchAll(/"((?:PARAPET|TLS|MONGODB|LOG|PORT|HOST)[A-Z0-9_]*)"|env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1] ?? m[2]));
    const documented = new Set(variableRows("docs/configuration.md").flatMap((r) => r.names));
    expect([...read].filter((n) => !documented.has(n))).toEqual([]);
  });

  it("a rate or a burst of 0 disables the per-key limit, as documented", () => {
    for (const env of [{ PARAPET_RATE_LIMIT_RPS: "0" }, { PARAPET_RATE_LIMIT_BURST: "0" }]) {
      const c = loadConfig(env);
      const limiter = new RateLimiter(c.rateLimitPerSecond, c.rateLimitBurst, () => 0);
      for (let i = 0; i < 20_000; i++) expect(limiter.take("key")).toBe(0);
    }
    const limited = loadConfig({ PARAPET_RATE_LIMIT_BURST: "2" });
    const limiter = new RateLimiter(limited.rateLimitPerSecond, limited.rateLimitBurst, () => 0);
    expect([limiter.take("key"), limiter.take("key"), limiter.take("key")]).toEqual([0, 0, 1]);
  });
});

let build: PrivateBuild;
beforeAll(async () => {
  build = await privateBuild();
});
afterAll(() => build?.remove());

/** Runs the compiled service (what `npm start` runs) with `env` until it exits. */
function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runUntilExit(build, env, 20_000);
}

describe("a wrong setting stops start-up with one line", () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: "http" }, /^PORT must be an integer from 0 to 65535, got 'http'$/],
    [{ PARAPET_RATE_LIMIT_BURST: "-1" }, /^PARAPET_RATE_LIMIT_BURST must be an integer from 0 to 10000000, got '-1'$/],
    [{ LOG_LEVEL: "verbose" }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose'$/],
    [{ PARAPET_METRICS: "false" }, /^PARAPET_METRICS must be one of on, off, got 'false'$/],
    [{ TLS_CERT_FILE: "/etc/cert.pem" }, /^TLS_CERT_FILE and TLS_KEY_FILE must be set together$/],
    [{ PARAPET_BOOTSTRAP_PLATFORM_KEY: "psk_0123456789012345678901234" }, /^PARAPET_BOOTSTRAP_PLATFORM_KEY must start with ppk_/],
    [{ PARAPET_HEADERS_TIMEOUT_MS: "90000" }, /^PARAPET_HEADERS_TIMEOUT_MS must not exceed PARAPET_RECEIVE_TIMEOUT_MS$/],
    [{ PARAPET_MODERATION_ONNX_ACTIVATION: "softmax" }, /^PARAPET_MODERATION_ONNX_ACTIVATION is set but PARAPET_MODERATION_ONNX is not$/],
    [{ PARAPET_WARMUP_MS: "5s" }, /^PARAPET_WARMUP_MS must be an integer from 0 to 60000, got '5s'$/],
    [{ PARAPET_ACCEPT_JOURNAL_LOSS: "all" }, /^PARAPET_ACCEPT_JOURNAL_LOSS must list journal file names/],
  ];
  it.each(cases.map(([env, message]) => [Object.keys(env)[0], env, message] as const))("%s", async (_, env, message) => {
    const { code, stdout, stderr } = await start(env);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    const lines = stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^parapet: configuration error: /);
    expect(lines[0].replace(/^parapet: configuration error: /, "")).toMatch(message);
  });
});
