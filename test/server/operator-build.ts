// The compiled service in a directory of its own, for the operator-*.test.ts files that start it as
// a process: test/support/global-setup.ts rebuilds the checkout's dist/ (removing it first) whenever a
// test run starts, so a process started from there can find it gone. The directory has what the
// service reads from the project root (src/paths.ts) as links to the checkout.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildService } from "../../scripts/build.mjs";

const checkout = path.resolve(import.meta.dirname, "../..");

export interface PrivateBuild {
  /** The project root of the build: cwd for the service. */
  root: string;
  main: string;
  remove(): void;
}

export async function privateBuild(): Promise<PrivateBuild> {
  const root = fs.mkdtempSync(path.join(tmpdir(), "parapet-operator-build-"));
  for (const entry of ["models", "src", "node_modules", "package.json"]) fs.symlinkSync(path.join(checkout, entry), path.join(root, entry));
  const main = await buildService(path.join(root, "dist"));
  return { root, main, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Runs the build's service with `env` (after a free port and a throwaway data directory) until it exits; killed after `killAfterMs`. */
export function runUntilExit(build: PrivateBuild, env: Record<string, string>, killAfterMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [build.main], {
      cwd: build.root,
      env: { ...process.env, PORT: "0", PARAPET_DATA_DIR: fs.mkdtempSync(path.join(build.root, "data-")), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
