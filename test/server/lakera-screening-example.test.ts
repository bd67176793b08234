// examples/screening.ts, the README's TypeScript screening example, run as a
// user runs it (tsx, environment variables) against a started service, so the
// example cannot drift from the API it shows.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { startTestServer } from "../support/server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");

describe("the screening example", () => {
  it("screens a conversation with content parts and prints the flagged answer", async () => {
    const server = await startTestServer();
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(root, "examples/screening.ts")], {
        cwd: root,
        env: { ...process.env, PARAPET_URL: server.url, PARAPET_SCREENING_KEY: server.screeningKey },
      });
      expect(stdout).toMatch(/^flagged: true$/m);
      expect(stdout).toMatch(/^detected: .*pii\/email \(message 1\)/m);
      // The e-mail address is the third part: after the first part and the "\n" separator.
      const first = "Where is my order? You can reach me at";
      expect(stdout).toContain(`span: pii/email [${first.length + 1}, ${first.length + 1 + "jane.doe@example.com".length}) "jane.doe@example.com"`);
      expect(stdout).toMatch(/^note: content parts, message 1: not screened: 1 non-text part \(image_url x1\)$/m);
      expect(stdout).toMatch(/^request: [0-9a-f]{8}-[0-9a-f]{4}-7/m);
    } finally {
      await server.close();
    }
  });
});
