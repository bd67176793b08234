// Where the running service listens, recorded in the embedded engine's data directory for the
// `parapet` command (docs/cli.md#finding-the-service). The data directory is the one thing the
// command and the service already share; the port is not: PORT may be set only in the service's
// shell, or be 0 (a port chosen at start). The record names the process that wrote it, so a record
// left by a killed service is recognised and ignored.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const RECORD_FILE = "service.json";

export interface ServiceRecord {
  pid: number;
  host: string;
  /** Base URL a client on this machine reaches the service at. */
  url: string;
  started_at: string;
}

/** The URL a local client uses for a listener on `host`: wildcard addresses are reached on loopback. */
export function localUrlOf(host: string, port: number, tls: boolean): string {
  const scheme = tls ? "https" : "http";
  if (host === "" || host === "0.0.0.0") return `${scheme}://127.0.0.1:${port}`;
  if (host === "::") return `${scheme}://[::1]:${port}`;
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * Writes the record (replacing it atomically) and returns the function that removes it, if still ours.
 * A record that cannot be written costs only the command's discovery, not the start: `onError` hears of it.
 */
export function writeServiceRecord(dataDir: string, url: string, onError: (err: unknown) => void): () => void {
  const record: ServiceRecord = { pid: process.pid, host: os.hostname(), url, started_at: new Date().toISOString() };
  const file = path.join(dataDir, RECORD_FILE);
  const text = JSON.stringify(record) + "\n";
  const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    onError(err);
    return () => {};
  }
  return () => {
    try {
      if (fs.readFileSync(file, "utf8") === text) fs.unlinkSync(file);
    } catch {
      // Already gone, or replaced by another process: not ours to remove.
    }
  };
}

/** The record of a service that is running on this machine, or undefined (none, unreadable, or its writer is gone). */
export function readServiceRecord(dataDir: string): ServiceRecord | undefined {
  let record: Partial<ServiceRecord>;
  try {
    record = JSON.parse(fs.readFileSync(path.join(dataDir, RECORD_FILE), "utf8")) as Partial<ServiceRecord>;
  } catch {
    return undefined;
  }
  if (typeof record.pid !== "number" || typeof record.url !== "string" || typeof record.started_at !== "string") return undefined;
  if (record.host !== os.hostname() || !processExists(record.pid)) return undefined;
  return record as ServiceRecord;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
