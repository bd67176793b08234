// examples/stream-gateway.ts run as a user runs it (tsx, environment variables) against a started
// service, so the gateway example of docs/streaming.md cannot drift from the protocol.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { startTestServer } from "../../support/server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../..");

it("the gateway example shows a clean answer whole and stops a leaking one before the address", async () => {
  const server = await startTestServer();
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(root, "examples/stream-gateway.ts")], {
      cwd: root,
      env: { ...process.env, PARAPET_URL: server.url, PARAPET_SCREENING_KEY: server.screeningKey },
      timeout: 15_000,
    });
    const clean = "We open at nine in the morning and close at six in the evening, every day but Sunday. For orders, use the form on the order page.";
    expect(stdout).toContain(clean);
    expect(stdout).toContain(`shown ${clean.length} characters, stopped: false`);
    expect(stdout).toContain("[parapet: pii/email at 53-73]");
    expect(stdout).toContain("[answer stopped by the guardrail]");
    expect(stdout).not.toContain("jane.doe");
    expect(stdout).toMatch(/stopped: true, log [0-9a-f]{8}-[0-9a-f]{4}-7/);
  } finally {
    await server.close();
  }
});
