// The README followed as a newcomer follows it, against the compiled service started as `npm start`
// starts it (fresh data directory, generated bootstrap keys): the project example (policy, project,
// screening) and the `parapet` commands of "Using it". Bodies, commands and the answers shown are
// read from README.md itself, so the README cannot drift from what the service answers.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, spawnServer, waitReady, type ChildServer } from "../support/child-server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

let readme: string;
let dir: string;
let server: ChildServer;
let keys: { platform_key: string; screening_key: string };
/** README example id -> the id this service answered, filled as the steps run. */
const ids = new Map<string, string>();

beforeAll(async () => {
  readme = await readFile(path.join(root, "README.md"), "utf8");
  dir = await mkdtemp(path.join(tmpdir(), "parapet-readme-"));
  server = spawnServer(await freePort(), { PARAPET_DATA_DIR: path.join(dir, "data") });
  await waitReady(server.url);
  keys = JSON.parse(await readFile(path.join(dir, "data", "bootstrap-keys.json"), "utf8"));
});

afterAll(async () => {
  if (server.child.exitCode === null) {
    server.child.kill("SIGTERM");
    await server.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README section ${title}`).toBeGreaterThan(0);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end);
}

function shellBlocks(text: string): string[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** A README curl call: its path, headers and the body of -d '...'; the "# " lines after it are the answer shown. */
interface Curl {
  path: string;
  headers: Record<string, string>;
  body: string;
  shown: string;
}

function curls(block: string): Curl[] {
  const found: Curl[] = [];
  const re = /curl -s localhost:8080(\S+)((?: -H ["'][^"']+["'])*) -d '([^']*)'\n((?:#.*\n)*)/g;
  for (const m of block.matchAll(re)) {
    const headers: Record<string, string> = {};
    for (const h of m[2].matchAll(/-H ["']([^:]+): ([^"']+)["']/g)) headers[h[1].toLowerCase()] = h[2];
    const shown = m[4]
      .split("\n")
      .map((l) => l.replace(/^# ?/, ""))
      .join("");
    found.push({ path: m[1], headers, body: m[3], shown });
  }
  return found;
}

function withIds(text: string): string {
  let out = text;
  for (const [example, real] of ids) out = out.replaceAll(example, real);
  return out;
}

/** Sends a README curl call as curl sends it (no content-type given: curl's form default). */
async function replay(call: Curl): Promise<unknown> {
  const auth = call.headers.authorization.replace("$KEY", keys.platform_key).replace("$SKEY", keys.screening_key);
  const res = await fetch(server.url + call.path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...call.headers, authorization: auth },
    body: withIds(call.body),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** The README's answer with its example ids mapped, and the request id (different on every call) left as it came. */
function expectShown(answer: any, shown: string): void {
  const expected = JSON.parse(withIds(shown));
  if (expected.metadata?.request_uuid) expected.metadata.request_uuid = answer.metadata.request_uuid;
  expect(answer).toEqual(expected);
}

describe("the README's project example", () => {
  it("creates the policy and the project of 'Using it', and screening under it answers what 'Screening' shows", async () => {
    const [policy, project] = curls(shellBlocks(section("Using it"))[0]);
    expect(policy.path).toBe("/v1/policies");
    expect(project.path).toBe("/v1-beta/projects");

    const createdPolicy = (await replay(policy)) as { id: string };
    ids.set(JSON.parse(policy.shown).id, createdPolicy.id);
    expectShown(createdPolicy, policy.shown);
    const createdProject = (await replay(project)) as { id: string };
    ids.set(JSON.parse(project.shown).id, createdProject.id);
    expectShown(createdProject, project.shown);

    const screening = curls(section("Screening")).find((c) => c.body.includes('"project_id"'))!;
    expect(screening.path).toBe("/v2/guard");
    const answer = (await replay(screening)) as { flagged: boolean };
    expect(answer.flagged).toBe(true);
    expectShown(answer, screening.shown);
  });
});

/** A README command line split as the shell splits it (words, "double quotes"), its trailing comment dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/\s+#.*$/, "").matchAll(/"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2]);
  return out;
}

interface Step {
  args: string[];
  shown: string[];
}

function parapetSteps(block: string): Step[] {
  const steps: Step[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("npx parapet ")) steps.push({ args: words(withIds(line)).slice(2), shown: [] });
    else if (line.startsWith("# ") && steps.length > 0) steps[steps.length - 1].shown.push(line.slice(2));
  }
  return steps;
}

const cliEnv = () => ({ ...process.env, PARAPET_DATA_DIR: path.join(dir, "data"), MONGODB_URI: "", PARAPET_URL: "", PARAPET_PLATFORM_KEY: "", PARAPET_API_KEY: "" });

async function parapet(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [path.join(root, "bin/parapet.js"), ...args], { cwd: dir, env: cliEnv() }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** Each line shown matches the output line at its place; "..." stands for what differs on every run. */
function expectLines(stdout: string, shown: string[]): void {
  const lines = stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(shown.length);
  shown.forEach((want, i) => {
    const pattern = withIds(want)
      .split("...")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*");
    expect(lines[i]).toMatch(new RegExp(`^${pattern}$`));
  });
}

/** `logs tail` follows until interrupted: run it until it printed a line, then Ctrl-C. */
async function tailUntilLine(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [path.join(root, "bin/parapet.js"), ...args], { cwd: dir, env: cliEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  child.stderr.resume();
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes("\n")) resolve();
    });
    child.once("exit", () => reject(new Error(`logs tail exited before printing: ${stdout}`)));
  });
  child.kill("SIGINT");
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  return { code, stdout };
}

describe("the README's parapet commands", () => {
  it("run while the service runs (through its API), and orgs with the service stopped", async () => {
    const [running, stopped] = shellBlocks(section("Using it")).filter((b) => b.includes("npx parapet "));
    const steps = parapetSteps(running);
    expect(steps.map((s) => s.args.slice(0, 2).join(" "))).toEqual(["keys create", "keys list", "screen Where is my order? Write to jane.doe@example.com", "logs tail"]);

    const created = await parapet(steps[0].args);
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ppk_[A-Za-z0-9_-]{43}\n$/) });
    const listed = await parapet(steps[1].args);
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split("\n")).toHaveLength(3);
    expect(listed.stdout).toContain("\tplatform\tread-only\t");

    // The project of the example above: its ids are mapped.
    expect(ids.size).toBe(2);
    const screened = await parapet(steps[2].args);
    expect(screened.code).toBe(3);
    expectLines(screened.stdout, steps[2].shown);

    const tail = await tailUntilLine(steps[3].args);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toMatch(new RegExp(`\\t${ids.get("project-eWfa3XWX5M0Q1bLR")}\\tflagged\\tpii/email\\n`));

    // Organizations have no API: with the service running the command says how to proceed.
    const [orgs] = parapetSteps(stopped);
    const refused = await parapet(orgs.args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`listening on ${server.url}`);
    expect(refused.stderr).toMatch(/no API.*stop the service/);
    server.child.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
    const updated = await parapet(orgs.args);
    expect(updated.code).toBe(0);
    expectLines(updated.stdout, orgs.shown);
    expect((await parapet(["orgs", "list"])).stdout).toMatch(/^org-default\t.*\tmax_policies=200\tpolicies=on,logs_analytics=on,agentic=off$/m);
  });
});
