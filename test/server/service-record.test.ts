// The record of where the service listens, which the `parapet` command reads from the data
// directory (docs/cli.md#finding-the-service): written once the listener is up, with the port it
// got, removed on close; records of other machines and of processes that are gone are ignored.
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";
import { localUrlOf, readServiceRecord, writeServiceRecord } from "../../src/server/service-record.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "parapet-record-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the service record", () => {
  it("names the port the service got (PORT=0) on loopback when it listens on every address, and goes with the service", async () => {
    const dataDir = path.join(dir, "service");
    const app = await startApp(loadConfig({ HOST: "0.0.0.0", PORT: "0", PARAPET_DATA_DIR: dataDir }), createLogger("silent"));
    const file = path.join(dataDir, "service.json");
    try {
      const record = JSON.parse(await readFile(file, "utf8"));
      expect(record).toEqual({ pid: process.pid, host: hostname(), url: `http://127.0.0.1:${app.port}`, started_at: expect.any(String) });
      expect(readServiceRecord(dataDir)).toEqual(record);
      // Ready once the start-up warm-up has ended (docs/operations.md#warm-up).
      await app.warmedUp;
      expect((await fetch(`${record.url}/readyz`)).status).toBe(200);
    } finally {
      await app.close();
    }
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it("gives the address a local client uses", () => {
    expect(localUrlOf("0.0.0.0", 8080, false)).toBe("http://127.0.0.1:8080");
    expect(localUrlOf("::", 8080, true)).toBe("https://[::1]:8080");
    expect(localUrlOf("::1", 9000, false)).toBe("http://[::1]:9000");
    expect(localUrlOf("parapet.internal", 443, true)).toBe("https://parapet.internal:443");
  });

  it("ignores a record of another machine, of a process that is gone, or damaged; removes only its own", async () => {
    const dataDir = path.join(dir, "records");
    const file = path.join(dataDir, "service.json");
    await mkdir(dataDir);
    const remove = writeServiceRecord(dataDir, "http://127.0.0.1:1", (err) => expect.fail(String(err)));
    expect(readServiceRecord(dataDir)?.url).toBe("http://127.0.0.1:1");
    const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    const base = { url: "http://127.0.0.1:2", started_at: "2026-01-01T00:00:00Z" };
    for (const record of [
      { ...base, pid: process.pid, host: "another-machine" },
      { ...base, pid: Number(gone), host: hostname() },
    ]) {
      await writeFile(file, JSON.stringify(record));
      expect(readServiceRecord(dataDir), JSON.stringify(record)).toBeUndefined();
    }
    await writeFile(file, "{not json");
    expect(readServiceRecord(dataDir)).toBeUndefined();
    // Another process's record replaced ours: closing leaves it in place.
    remove();
    expect(await readFile(file, "utf8")).toBe("{not json");
  });

  it("a record that cannot be written is reported, not fatal", () => {
    const errors: unknown[] = [];
    const remove = writeServiceRecord(path.join(dir, "no", "such", "directory"), "http://127.0.0.1:1", (err) => errors.push(err));
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/ENOENT/);
    remove();
  });
});
