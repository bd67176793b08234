// examples/python/ run as a Python user runs them (python3, plain requests,
// environment variables) against a started service. Skipped, and reported as
// skipped, where python3 or requests is missing.
import { execFile, spawnSync } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const dir = path.join(root, "examples/python");
const python = spawnSync("python3", ["-c", "import requests"], { stdio: "ignore" });
const hasPython = python.error === undefined && python.status === 0;

let server: TestServer;

/** Runs an example; resolves with its output, or with the exit code and output of a failed run. */
async function example(file: string, args: string[] = [], key?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PARAPET_URL: server.url, PARAPET_SCREENING_KEY: key ?? server.screeningKey, PYTHONDONTWRITEBYTECODE: "1" };
  try {
    const { stdout, stderr } = await run("python3", [path.join(dir, file), ...args], { env, cwd: root });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe.skipIf(!hasPython)("the Python examples (python3 and requests)", () => {
  beforeAll(async () => {
    server = await startTestServer({ PARAPET_VAULT_KEY: Buffer.alloc(32, 5).toString("base64") });
  });
  afterAll(() => server?.close());

  it("screening.py prints the decision, the detectors, the spans as Python slices, and a refusal", async () => {
    const { code, stdout, stderr } = await example("screening.py");
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^flagged: true$/m);
    expect(stdout).toMatch(/^detected: pii\/email \(message 1\)$/m);
    // content[start:end] in Python is the matched text: code-point offsets.
    const start = "Where is my order? You can reach me at ".length;
    expect(stdout).toContain(`span: pii/email [${start}, ${start + 20}) 'jane.doe@example.com'`);
    expect(stdout).toMatch(/^request: [0-9a-f]{8}-[0-9a-f]{4}-7/m);
    expect(stdout).toMatch(/^refused: validation_failed \(422\) .*role.* \[request [0-9a-f-]{36}\]$/m);
  });

  it("screening.py reports Parapet's error and exits 1 with a wrong key", async () => {
    const { code, stderr } = await example("screening.py", [], "psk_not_a_key");
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: unauthenticated \(401\) .* \[request [0-9a-f-]{36}\]$/m);
  });

  it("sanitize.py gives the model placeholders and the user the originals", async () => {
    const { code, stdout, stderr } = await example("sanitize.py");
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^to the model: Please send the invoice to \[EMAIL_1\] and copy \[EMAIL_2\]\.$/m);
    expect(stdout).not.toMatch(/to the model:.*@/);
    expect(stdout).toMatch(/^replaced: 2, vault: vlt_[\w-]{32} until 20\d\d-/m);
    expect(stdout).toMatch(/^from the model: Done: the invoice went to \[EMAIL_1\], with a copy to \[EMAIL_2\]\.$/m);
    expect(stdout).toMatch(/^to the user: Done: the invoice went to jane\.doe@example\.com, with a copy to bob\.smith@example\.org\.$/m);
    expect(stdout).toMatch(/^restored: 2, unknown: 0$/m);
  });

  it("stream.py shows a clean answer whole", async () => {
    const { code, stdout, stderr } = await example("stream.py");
    expect(code, stderr).toBe(0);
    const shown = /^user sees: (.*)$/m.exec(stdout)![1];
    expect(shown).toMatch(/^The shop manager is in on weekdays .* the same day\.$/);
    expect(stdout).toMatch(new RegExp(`^released: ${shown.length} of ${shown.length} characters$`, "m"));
    expect(stdout).toMatch(/^flagged: false$/m);
    expect(stdout).toMatch(/^request: [0-9a-f]{8}-[0-9a-f]{4}-7/m);
  });

  it("stream.py --leak stops the answer before the address, which the user never sees", async () => {
    const { code, stdout, stderr } = await example("stream.py", ["--leak"]);
    expect(code, stderr).toBe(0);
    const shown = /^user sees: (.*)$/m.exec(stdout)![1];
    expect(shown).not.toContain("@");
    expect("The shop manager is in on weekdays from nine to five. You can write to her directly at ".startsWith(shown)).toBe(true);
    expect(stdout).toMatch(/^flagged: true$/m);
    expect(stdout).toMatch(/^withheld: pii\/email \[\d+, \d+\)$/m);
  });
});
