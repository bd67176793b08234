// A real server with a vault key, and the files of its data directory for
// checks that stored bytes never hold a masked value.
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/server.js";

const vaultKey = () => randomBytes(32).toString("base64");

export function startVaultServer(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ PARAPET_VAULT_KEY: vaultKey(), ...env });
}

/** Every byte the embedded engine wrote (journal segments, snapshots), concatenated. */
export async function storedBytes(dataDir: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) chunks.push(await readFile(path.join(entry.parentPath, entry.name)));
  }
  return Buffer.concat(chunks);
}

export const guard = (server: TestServer, body: unknown, key: string | null = server.screeningKey) => server.rest("POST", "/v2/guard", body, key);
export const restore = (server: TestServer, body: unknown, key: string | null = server.screeningKey) => server.rest("POST", "/v2/guard/restore", body, key);

export function expectError(res: { status: number; body: any }, status: number, error: string) {
  if (res.status !== status) throw new Error(`expected ${status} ${error}, got ${res.status} ${JSON.stringify(res.body)}`);
  if (res.body?.status !== "error" || res.body.error !== error || res.body.code !== status || typeof res.body.request_id !== "string") {
    throw new Error(`not the Error object of ${error}: ${JSON.stringify(res.body)}`);
  }
}
