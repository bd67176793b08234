// The documentation's runnable examples (blocks marked `<!-- runnable -->`,
// docs/architecture.md#tests) against a real service: TypeScript blocks are
// type-checked and run as programs (exit 0), the curl commands of shell blocks
// are sent with fetch exactly as curl sends them and must get the documented
// status and the documented yes/no and numeric answers. Blocks of a document
// run in order, so a later command's `gst_...` placeholder is the stream an
// earlier one opened.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asCurlCall,
  documentedStatus,
  documentedValues,
  hasValue,
  idsIn,
  placeholder,
  runnableBlocks,
  shellCommands,
  type RunnableBlock,
} from "../support/doc-examples.js";
import { startTestServer, type TestServer } from "../support/server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const documents = [
  "README.md",
  "clients/typescript/README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const blocks = documents.flatMap((doc) => runnableBlocks(doc, readFileSync(path.join(root, doc), "utf8")));
const byDocument = new Map<string, RunnableBlock[]>();
for (const b of blocks) byDocument.set(b.file, [...(byDocument.get(b.file) ?? []), b]);
const programName = (b: RunnableBlock) => `${b.file.replace(/[/.]/g, "-")}-${b.line}.mts`;

let server: TestServer;
let work: string;

beforeAll(async () => {
  server = await startTestServer({ PARAPET_VAULT_KEY: Buffer.alloc(32, 9).toString("base64") });
  // The programs live outside the repository and see its packages (@parapet/client, tsx) through a link.
  work = mkdtempSync(path.join(tmpdir(), "parapet-doc-examples-"));
  symlinkSync(path.join(root, "node_modules"), path.join(work, "node_modules"), "dir");
  for (const b of blocks.filter((b) => b.lang === "ts")) writeFileSync(path.join(work, programName(b)), b.code);
  writeFileSync(
    path.join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: ["node"] },
      include: ["*.mts"],
    }),
  );
});
afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("runnable examples", () => {
  it("are marked where the documentation promises them", () => {
    for (const b of blocks) expect(["ts", "sh"], `${b.file}:${b.line}: only ts and sh blocks can be runnable`).toContain(b.lang);
    const count = (file: string, lang: string) => (byDocument.get(file) ?? []).filter((b) => b.lang === lang).length;
    // The two examples of the client's README (screen and createParapetClients) and the REST examples the pages lead with.
    expect(count("clients/typescript/README.md", "ts")).toBe(2);
    expect(count("README.md", "ts")).toBeGreaterThanOrEqual(1);
    expect(count("README.md", "sh")).toBeGreaterThanOrEqual(2);
    for (const doc of ["docs/sanitize.md", "docs/streaming.md", "docs/integrations.md", "docs/migrating-from-lakera.md"])
      expect(count(doc, "sh"), doc).toBeGreaterThan(0);
  });

  it("are read strictly: a stray marker, an unsupported curl option or an unknown variable is an error", () => {
    expect(() => runnableBlocks("x.md", "<!-- runnable -->\n\nText.\n")).toThrow(/x\.md:1: .* must be followed by a fenced code block/);
    expect(runnableBlocks("x.md", "```sh\ncurl a\n```\n<!-- runnable -->\n\n```sh\ncurl b\n```\n")).toEqual([{ file: "x.md", line: 6, lang: "sh", code: "curl b" }]);
    const [cmd] = shellCommands("curl --compressed localhost:8080/v2/guard");
    expect(() => asCurlCall(cmd, {})).toThrow(/curl option --compressed is not supported/);
    const [unknown] = shellCommands('curl localhost:8080/v2/guard -H "Authorization: Bearer $TOKEN"');
    expect(() => asCurlCall(unknown, {})).toThrow(/unknown variable \$TOKEN/);
    // What curl sends: a form post for -d, the quoted body as written, the output lines as the documented answer.
    const [call] = shellCommands(
      `SKEY=psk_...   # a key\ncurl -s localhost:8080//v2/guard -H "Authorization: Bearer $SKEY" -d '{\n  "a": 1}'    # REST\n# HTTP/1.1 422 Unprocessable\n# {"flagged":false,"n":2}`,
    )
      .map((c) => asCurlCall(c, { SKEY: "psk_x" }))
      .filter((c) => c !== null);
    expect(call).toMatchObject({
      method: "POST",
      path: "//v2/guard",
      body: '{\n  "a": 1}',
      headers: { authorization: "Bearer psk_x", "content-type": "application/x-www-form-urlencoded" },
    });
    expect(documentedStatus(call.documented)).toBe(422);
    expect(documentedValues(call.documented)).toEqual([
      ["flagged", false],
      ["n", 2],
    ]);
  });

  it("type-check against the packages they import", async () => {
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    await expect(run(process.execPath, [tsc, "-p", work], { cwd: work }).then(() => "ok")).resolves.toBe("ok");
  });
});

type Keys = { platformKey: string; screeningKey: string };

// Each document runs in an organization of its own, as on a fresh service: names and ids another
// document created are not there.
for (const [doc, docBlocks] of byDocument) {
  describe(doc, () => {
    const ids = new Map<string, string>();
    let keys: Keys;
    beforeAll(async () => {
      keys = await server.newOrg();
    });
    for (const b of docBlocks) {
      it(`line ${b.line} (${b.lang})`, async () => {
        if (b.lang === "ts") await runProgram(b, keys);
        else await runCurls(b, keys, ids);
      });
    }
  });
}

async function runProgram(b: RunnableBlock, keys: Keys): Promise<void> {
  const file = path.join(work, programName(b));
  writeFileSync(file, b.code.replaceAll("http://localhost:8080", server.url));
  const env = { ...process.env, PARAPET_URL: server.url, PARAPET_SCREENING_KEY: keys.screeningKey, PARAPET_PLATFORM_KEY: keys.platformKey };
  try {
    await run(process.execPath, ["--import", "tsx", file], { cwd: work, env });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string };
    throw new Error(`${b.file}:${b.line} failed:\n${e.stderr ?? ""}${e.stdout ?? ""}`);
  }
}

async function runCurls(b: RunnableBlock, keys: Keys, ids: Map<string, string>): Promise<void> {
  const vars = { SKEY: keys.screeningKey, KEY: keys.platformKey };
  let sent = 0;
  for (const command of shellCommands(b.code)) {
    const text = command.text.replace(placeholder, (m, prefix: string) => {
      const id = ids.get(prefix);
      if (!id) throw new Error(`${b.file}:${b.line}: ${m} refers to no earlier answer`);
      return id;
    });
    const call = asCurlCall({ ...command, text }, vars);
    if (!call) continue;
    const res = await fetch(server.url + call.path, { method: call.method, headers: call.headers, body: call.body });
    const raw = await res.text();
    const body: unknown = raw && res.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(raw) : raw;
    const what = `${b.file}:${b.line}: ${call.command}\n-> ${res.status} ${raw.slice(0, 600)}`;
    expect(res.status, what).toBe(documentedStatus(call.documented));
    for (const [key, value] of documentedValues(call.documented)) expect(hasValue(body, key, value), `${what}\ndocumented "${key}": ${value}`).toBe(true);
    for (const [prefix, id] of idsIn(body)) ids.set(prefix, id);
    sent++;
  }
  expect(sent, `${b.file}:${b.line}: a runnable shell block has at least one curl command`).toBeGreaterThan(0);
}
