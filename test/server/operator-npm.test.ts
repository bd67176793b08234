// npm in this project (docs/deployment.md#installing-with-npm): no configuration npm does not know
// (it warns on every command, and its next major version refuses it), and onnxruntime-node's
// postinstall, which would download GPU binaries from outside the npm registry, kept from running by
// package.json's allowScripts, the install-script policy npm itself reads.
import { execFile } from "node:child_process";
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string; resolved?: string; hasInstallScript?: boolean; dev?: boolean }>;
};
const npmVersion = (await run("npm", ["--version"], { cwd: root })).stdout.trim();
// allowScripts is read at install time from npm 11.16 on (npm help package-json).
const [major, minor] = npmVersion.split(".").map(Number);
const npmReadsAllowScripts = major > 11 || (major === 11 && minor >= 16);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("npm configuration", () => {
  it("the project sets nothing npm warns about", async () => {
    const { stderr } = await run("npm", ["config", "get", "registry"], { cwd: root });
    expect(stderr).not.toMatch(/Unknown project config/);
  });

  it("every dependency with install scripts is reviewed in allowScripts; onnxruntime-node's is denied", () => {
    const withScripts = new Set(
      Object.entries(lock.packages)
        .filter(([key, p]) => key !== "" && p.hasInstallScript)
        .map(([key]) => key.replace(/^.*node_modules\//, "")),
    );
    expect([...withScripts].sort()).toEqual(Object.keys(pkg.allowScripts ?? {}).sort());
    expect(pkg.allowScripts?.["onnxruntime-node"]).toBe(false);
    // cld compiles its native addon when installed.
    expect(pkg.allowScripts?.cld).toBe(true);
  });

  // The policy as npm applies it: `npm rebuild` runs install scripts the way `npm ci` does, offline,
  // on a project with this package.json's policy and onnxruntime-node as the lockfile records it, its
  // postinstall replaced by one that leaves a mark.
  it.skipIf(!npmReadsAllowScripts)("npm skips onnxruntime-node's postinstall under this package.json, and runs it without the policy", async () => {
    const entry = lock.packages["node_modules/onnxruntime-node"];
    const ran = async (allowScripts: Record<string, boolean> | undefined) => {
      const dir = fs.mkdtempSync(path.join(tmpdir(), "parapet-npm-policy-"));
      dirs.push(dir);
      const mark = path.join(dir, "postinstall-ran");
      fs.mkdirSync(path.join(dir, "node_modules/onnxruntime-node"), { recursive: true });
      const script = `node -e "require('fs').writeFileSync('${mark}', '')"`;
      fs.writeFileSync(
        path.join(dir, "node_modules/onnxruntime-node/package.json"),
        JSON.stringify({ name: "onnxruntime-node", version: entry.version, scripts: { postinstall: script } }),
      );
      const dependencies = { "onnxruntime-node": entry.version };
      fs.writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: "policy-check", version: "1.0.0", dependencies, ...(allowScripts ? { allowScripts } : {}) }),
      );
      fs.writeFileSync(
        path.join(dir, "package-lock.json"),
        JSON.stringify({
          name: "policy-check",
          version: "1.0.0",
          lockfileVersion: 3,
          requires: true,
          packages: {
            "": { name: "policy-check", version: "1.0.0", dependencies },
            "node_modules/onnxruntime-node": { version: entry.version, resolved: entry.resolved, hasInstallScript: true },
          },
        }),
      );
      await run("npm", ["rebuild", "--offline", "--no-audit", "--no-fund"], { cwd: dir });
      return fs.existsSync(mark);
    };
    expect(await ran(undefined)).toBe(true);
    expect(await ran(pkg.allowScripts)).toBe(false);
  });
});
