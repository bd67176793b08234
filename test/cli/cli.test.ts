// The `parapet` command as a user runs it (bin/parapet.js in a child process) against a started
// service that generated its bootstrap keys file, and against the same data directory once the
// service is stopped: finding the service, usage errors, `screen` and `logs tail`, hostile input.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";

const root = path.resolve(import.meta.dirname, "../..");

let dir: string;
let dataDir: string;
let app: App;
let url: string;
let keys: { platform_key: string; screening_key: string };
let projectId: string;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment of a shell that set nothing for the command: it must find the service itself. */
function envOf(extra: Record<string, string>): NodeJS.ProcessEnv {
  const clean = { PARAPET_URL: "", PARAPET_API_KEY: "", PARAPET_PLATFORM_KEY: "", PARAPET_SCREENING_KEY: "", MONGODB_URI: "", HOST: "", PORT: "" };
  return { ...process.env, ...clean, PARAPET_DATA_DIR: dataDir, ...extra };
}

function cli(args: string[], extra: Record<string, string> = {}, input?: string | Buffer): Promise<Result> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [path.join(root, "bin/parapet.js"), ...args], { cwd: dir, env: envOf(extra), maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
    if (input !== undefined) child.stdin!.end(input);
    else child.stdin!.end();
  });
}

async function post(p: string, body: unknown, key = keys.platform_key): Promise<any> {
  const res = await fetch(url + p, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  expect(res.status, p).toBe(200);
  return res.json();
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "parapet-cli-"));
  dataDir = path.join(dir, "data");
  app = await startApp(loadConfig({ HOST: "127.0.0.1", PORT: "0", PARAPET_DATA_DIR: dataDir }), createLogger("silent"));
  url = `http://127.0.0.1:${app.port}`;
  keys = JSON.parse(await readFile(path.join(dataDir, "bootstrap-keys.json"), "utf8"));
  const policy = await post("/v1/policies", {
    name: "answers",
    default_threshold: "l2_very_likely",
    detectors: [{ type: "pii/email", location: "assistant::content" }],
  });
  projectId = (await post("/v1-beta/projects", { name: "answers", policy_id: policy.id, action: "enforce" })).id;
});

afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("with the service running", () => {
  it("key commands go through its API with the bootstrap keys file's platform key, on the port it listens on", async () => {
    // PORT in this shell says 8080; the service's record says where it really listens.
    const listed = await cli(["keys", "list"], { PORT: "8080" });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split("\n")).toHaveLength(2);
    expect(listed.stderr).toContain(`keys go through its API at ${url}, with the platform_key of ./data/bootstrap-keys.json`);
    const created = await cli(["keys", "create", "--kind", "screening"]);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^psk_[A-Za-z0-9_-]{43}\n$/);
    const res = await fetch(`${url}/v2/guard`, {
      method: "POST",
      headers: { authorization: `Bearer ${created.stdout.trim()}` },
      body: '{"messages":[{"role":"user","content":"hi"}]}',
    });
    expect(res.status).toBe(200);
    // --org naming the key's own organization is what the API does anyway; another one is refused.
    expect((await cli(["keys", "list", "--org", "org-default"])).code).toBe(0);
    const other = await cli(["keys", "list", "--org", "org-other"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("belongs to org-default");
  });

  it("a revoked bootstrap key is reported with where it came from (exit 1)", async () => {
    const file = path.join(dataDir, "bootstrap-keys.json");
    await writeFile(path.join(dir, "revoked-keys.json"), JSON.stringify({ platform_key: "ppk_not_a_key_of_this_service_000000000000" }));
    const err = await cli(["keys", "list"], { PARAPET_BOOTSTRAP_KEYS_FILE: path.join(dir, "revoked-keys.json") });
    expect(err.code).toBe(1);
    expect(err.stderr).toMatch(/\(unauthenticated, HTTP 401, request [0-9a-f-]{36}\); the key came from platform_key of .*revoked-keys\.json/);
    expect((await stat(file)).isFile()).toBe(true);
  });

  it("organizations, which have no API, say which service holds the data directory and how to proceed (exit 1)", async () => {
    const err = await cli(["orgs", "set", "org-default", "--max-policies", "5"], { PORT: "8080" });
    expect(err.code).toBe(1);
    expect(err.stderr).toContain(`the service is running on ./data (pid ${process.pid}, listening on ${url})`);
    expect(err.stderr).toContain("Organizations have no API");
    expect(err.stderr).toContain(`kill ${process.pid}`);
    expect(err.stderr).not.toContain("8080");
    const exported = await cli(["export", path.join(dir, "out.ndjson")]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toContain(`listening on ${url}`);
  });

  it("a mistyped command, action or flag is a usage error (exit 2), never a locked data directory", async () => {
    for (const args of [
      ["keys", "lst"],
      ["key", "list"],
      ["keys"],
      ["keys", "list", "--bogus"],
      ["orgs", "sett", "org-default"],
      ["orgs", "set", "org-default", "--max-policies", "-1"],
      ["logs", "follow"],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain("usage:");
      expect(r.stderr, args.join(" ")).not.toMatch(/is in use|the service is running|holds the data directory/);
    }
    expect((await cli(["key", "list"])).stderr).toContain("unknown command 'key' (did you mean 'keys'?)");
    expect((await cli(["keys", "lst"])).stderr).toContain("unknown keys action 'lst' (one of: create, list, revoke)");
  });
});

describe("parapet screen", () => {
  it("prints the verdict and exits 3 when flagged, 0 when not", async () => {
    const flagged = await cli(["screen", "Write to jane.doe@example.com"]);
    expect(flagged.code).toBe(3);
    expect(flagged.stdout).toMatch(
      /^flagged: true\ndetected: pii\/email\nspan: pii\/email \[9, 29\) "jane\.doe@example\.com"\npolicy: policy-default \(project project-default\)\nrequest: [0-9a-f-]{36}\n$/,
    );
    const clean = await cli(["screen", "What", "is", "the", "weather", "like?"]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/^flagged: false\ndetected: nothing\n/);
  });

  it("screens under a project, as another role, and prints the API's answer with --json", async () => {
    const asUser = await cli(["screen", "--project", projectId, "--json", "Write to jane.doe@example.com"]);
    expect(asUser.code).toBe(0);
    expect(JSON.parse(asUser.stdout)).toMatchObject({ flagged: false, breakdown: [] });
    const asAssistant = await cli(["screen", "--project", projectId, "--role", "assistant", "--json", "Write to jane.doe@example.com"]);
    expect(asAssistant.code).toBe(3);
    const answer = JSON.parse(asAssistant.stdout);
    expect(answer.flagged).toBe(true);
    expect(answer.breakdown).toEqual([expect.objectContaining({ project_id: projectId, detector_id: "pii/email@assistant::content", detected: true })]);
    // The screening key from the environment wins over the file's; the service rejects a wrong one.
    const wrong = await cli(["screen", "hi"], { PARAPET_SCREENING_KEY: keys.platform_key });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/HTTP 40[13].*request [0-9a-f-]{36}/);
  });

  it("reads a file or standard input", async () => {
    const file = path.join(dir, "message.txt");
    await writeFile(file, "\uFEFFPlease reply to jane.doe@example.com\n");
    const fromFile = await cli(["screen", "--file", file]);
    expect(fromFile.code).toBe(3);
    // The byte-order mark is not part of the text: spans count from the first character.
    expect(fromFile.stdout).toContain('span: pii/email [16, 36) "jane.doe@example.com"');
    const fromStdin = await cli(["screen", "--file", "-"], {}, "Hello there, how are you?");
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toMatch(/^flagged: false\n/);
  });

  it("refuses hostile input without sending it: binary, not UTF-8, empty, a directory, too large for any service", async () => {
    const binary = path.join(dir, "image.bin");
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const latin1 = path.join(dir, "latin1.txt");
    await writeFile(latin1, Buffer.from("caf\xe9 cr\xe8me", "latin1"));
    const empty = path.join(dir, "empty.txt");
    await writeFile(empty, "");
    // A sparse file: 5 GB on paper, nothing on disk; the command must not try to read it.
    const huge = path.join(dir, "huge.txt");
    const handle = await open(huge, "w");
    await handle.truncate(5 * 1024 ** 3);
    await handle.close();
    await mkdir(path.join(dir, "a-directory"), { recursive: true });
    const cases: [string[], RegExp][] = [
      [["--file", binary], /image\.bin is not text \(it holds NUL bytes/],
      [["--file", latin1], /latin1\.txt is not UTF-8 text/],
      [["--file", empty], /empty\.txt is empty: nothing to screen/],
      [["--file", huge], /huge\.txt is 5368709120 bytes, more than any service accepts/],
      [["--file", path.join(dir, "a-directory")], /a-directory is not a regular file/],
      [["--file", path.join(dir, "missing.txt")], /cannot read .*missing\.txt: ENOENT/],
      [[""], /the text is empty/],
    ];
    for (const [args, message] of cases) {
      const r = await cli(["screen", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toMatch(message);
      expect(r.stderr).not.toContain("usage:");
      expect(r.stdout).toBe("");
    }
    const binaryStdin = await cli(["screen", "--file", "-"], {}, Buffer.from([0xff, 0x00, 0xfe]));
    expect(binaryStdin.code).toBe(2);
    expect(binaryStdin.stderr).toContain("standard input is not text");
  });

  it("reports a file over the service's body limit with the service's answer and the setting (exit 1)", async () => {
    const big = path.join(dir, "big.txt");
    await writeFile(big, "lorem ipsum ".repeat(200_000));
    const r = await cli(["screen", "--file", big]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /request body exceeds 1048576 bytes \(payload_too_large, HTTP 413, request [0-9a-f-]{36}\); the service's PARAPET_MAX_BODY_BYTES sets the limit/,
    );
  });

  it("usage errors: unknown flags, both or neither input, a role the API does not know", async () => {
    for (const args of [["--bogus", "x"], ["x", "--file", "f.txt"], [], ["--role", "wizard", "x"], ["--project"], ["--project", "", "x"]]) {
      const r = await cli(["screen", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr, args.join(" ")).toContain("usage:");
    }
  });
});

/** Runs `logs tail` until `done(stdout)` holds, then interrupts it as Ctrl-C does. */
async function tail(args: string[], done: (stdout: string) => boolean, whileRunning?: () => Promise<void>) {
  const child = spawn(process.execPath, [path.join(root, "bin/parapet.js"), "logs", "tail", "--interval", "0.5", ...args], {
    cwd: dir,
    env: envOf({}),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let following = false;
  await new Promise<void>((resolve, reject) => {
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      // Traffic made once the command says it follows: it cannot have started before it.
      if (following || !stderr.includes("following the request logs")) return;
      following = true;
      // The log may be printed before the call that made it has returned: check again then.
      void whileRunning?.().then(() => done(stdout) && resolve(), reject);
    });
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      if (done(stdout)) resolve();
    });
    void exited.then(() => reject(new Error(`logs tail exited early: ${stderr}`)));
  });
  child.kill("SIGINT");
  return { code: await exited, stdout, stderr };
}

describe("parapet logs tail", () => {
  it("prints the logs since --since, follows new ones, filters by --flagged and --project, and stops on SIGINT with 0", async () => {
    const screenAs = (role: string, content: string) => post("/v2/guard", { project_id: projectId, messages: [{ role, content }] }, keys.screening_key);
    const before = await screenAs("assistant", "Mail me at old@example.com");
    const passed = await screenAs("assistant", "nothing to see here");
    const elsewhere = await post("/v2/guard", { messages: [{ role: "user", content: "Mail default@example.com" }] }, keys.screening_key);
    let after: { metadata: { request_uuid: string } } | undefined;
    const seen = await tail(
      ["--since", "1h", "--flagged", "--project", projectId],
      (out) => after !== undefined && out.includes(after.metadata.request_uuid),
      async () => {
        after = await screenAs("assistant", "Now write to new@example.com");
      },
    );
    expect(seen.code).toBe(0);
    // Every flagged log of the project in the last hour (earlier tests made some), oldest first, each once.
    const lines = seen.stdout.trim().split("\n");
    for (const line of lines) expect(line).toMatch(new RegExp(`^\\S+Z\\t[0-9a-f-]{36}\\t${projectId}\\tflagged\\tpii/email$`));
    const ids = lines.map((l) => l.split("\t")[1]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(-2)).toEqual([before.metadata.request_uuid, after!.metadata.request_uuid]);
    expect(ids).not.toContain(passed.metadata.request_uuid);
    expect(ids).not.toContain(elsewhere.metadata.request_uuid);
  });

  it("prints each log once as JSON with --json, without --since only new ones", async () => {
    const old = await post("/v2/guard", { messages: [{ role: "user", content: "an older request" }] }, keys.screening_key);
    let fresh: { metadata: { request_uuid: string } } | undefined;
    const seen = await tail(
      ["--json"],
      (out) => fresh !== undefined && out.includes(fresh.metadata.request_uuid),
      async () => {
        fresh = await post("/v2/guard", { messages: [{ role: "user", content: "a new request" }] }, keys.screening_key);
      },
    );
    expect(seen.code).toBe(0);
    const logs = seen.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(logs.map((l) => l.request_uuid)).toEqual([fresh!.metadata.request_uuid]);
    expect(logs[0]).toMatchObject({ project_id: "project-default", flagged: false, messages: [expect.objectContaining({ content: "a new request" })] });
    expect(seen.stdout).not.toContain(old.metadata.request_uuid);
  });

  it("refuses a screening key and bad durations", async () => {
    const denied = await cli(["logs", "tail"], { PARAPET_PLATFORM_KEY: keys.screening_key });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/HTTP 40[13]/);
    for (const args of [["--since", "yesterday"], ["--interval", "0"], ["--interval", "3600"], ["extra"], ["--bogus"]]) {
      const r = await cli(["logs", "tail", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
    }
  });
});

describe("parapet logs tail across a restart", () => {
  it("says once that the service is gone, retries at its interval, and follows again when it is back", async () => {
    const child = spawn(process.execPath, [path.join(root, "bin/parapet.js"), "logs", "tail", "--interval", "0.5"], {
      cwd: dir,
      env: envOf({}),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const until = async (what: () => boolean, label: string) => {
      for (let i = 0; i < 600 && !what(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(what(), `${label}: ${stderr}`).toBe(true);
    };
    await until(() => stderr.includes("following the request logs"), "started");
    const port = app.port;
    await app.close();
    await until(() => stderr.includes("Retrying every 0.5 s."), "lost");
    expect(stderr.match(/cannot use the API/g)).toHaveLength(1);
    app = await startApp(loadConfig({ HOST: "127.0.0.1", PORT: String(port), PARAPET_DATA_DIR: dataDir }), createLogger("silent"));
    const later = await post("/v2/guard", { messages: [{ role: "user", content: "after the restart" }] }, keys.screening_key);
    await until(() => stdout.includes(later.metadata.request_uuid), "followed");
    expect(stderr).toContain(`the service at ${url} answers again`);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  });
});

describe("with the service stopped", () => {
  it("key and organization commands work on the store; screen and logs tail say no service answers (exit 1)", async () => {
    await app.close();
    // The record goes with the service: nothing is left to point at a dead port.
    await expect(stat(path.join(dataDir, "service.json"))).rejects.toThrow(/ENOENT/);
    const listed = await cli(["keys", "list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("\torg-default\tplatform\tread-write\t");
    expect(listed.stderr).toBe("");
    expect(await cli(["orgs", "set", "org-default", "--max-policies", "7"])).toMatchObject({ code: 0, stdout: "updated org-default\n" });
    expect((await cli(["keys", "lst"])).code).toBe(2);

    const port = String(app.port);
    const screened = await cli(["screen", "hello"], { PORT: port });
    expect(screened.code).toBe(1);
    expect(screened.stderr).toContain(`cannot use the API at http://127.0.0.1:${port} (from HOST and PORT)`);
    expect(screened.stderr).toContain("Is the service running there?");
    const tailed = await cli(["logs", "tail"]);
    expect(tailed.code).toBe(1);
    expect(tailed.stderr).toContain("cannot use the API at http://127.0.0.1:8080 (from the default port 8080");

    // A record left by a service that was killed names a process that is gone: it is ignored.
    await writeFile(
      path.join(dataDir, "service.json"),
      JSON.stringify({ pid: 2 ** 22 + 1, host: (await import("node:os")).hostname(), url: "http://127.0.0.1:1", started_at: "2026-01-01T00:00:00Z" }),
    );
    const stale = await cli(["screen", "hello"]);
    expect(stale.stderr).toContain("cannot use the API at http://127.0.0.1:8080");
    await rename(path.join(dataDir, "service.json"), path.join(dir, "stale-record.json"));
  });

  it("a LOCK naming a live process that is not the service: no 'kill PID', but which program has the pid and the safe way on (issue 29)", async () => {
    const other = spawn("sleep", ["300"], { stdio: "ignore" });
    const lock = path.join(dataDir, "LOCK");
    try {
      await new Promise((resolve) => other.once("spawn", resolve));
      await writeFile(lock, JSON.stringify({ pid: other.pid, host: (await import("node:os")).hostname(), startedAt: "2026-01-01T00:00:00.000Z" }));
      for (const args of [
        ["orgs", "set", "org-default", "--max-policies", "5"],
        ["export", path.join(dir, "locked.ndjson")],
      ]) {
        const r = await cli(args);
        expect(r.code, args.join(" ")).toBe(1);
        expect(r.stderr, args.join(" ")).toContain(`pid ${other.pid} is running: sleep 300`);
        expect(r.stderr, args.join(" ")).toContain(`remove ${lock} and start again`);
        expect(r.stderr, args.join(" ")).not.toContain(`kill ${other.pid}`);
      }
    } finally {
      other.kill("SIGKILL");
      await rm(lock, { force: true });
    }
  });

  it("export writes a file only its owner may read (0600), whatever the umask allows", async () => {
    const file = path.join(dir, "parapet-export.ndjson");
    // 022 is the usual umask, under which a plain create is 0644: readable by every local user.
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn("sh", ["-c", `umask 022 && exec "${process.execPath}" "${path.join(root, "bin/parapet.js")}" export "${file}"`], {
        cwd: dir,
        env: envOf({}),
        stdio: "ignore",
      });
      child.once("exit", resolve);
    });
    expect(code).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // What makes it secret: the key hashes, among the request logs and the rest.
    const text = await readFile(file, "utf8");
    expect(text).toContain('"collection":"api_keys"');
    expect(text).toContain('"hash":');
  });
});
