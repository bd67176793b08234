// What dev_info reports (docs/decisions.md#build-information): the build's version and source revision,
// read once at start-up. Deployments without a .git directory set
// PARAPET_GIT_REVISION / PARAPET_GIT_TIMESTAMP at build time.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { projectFile } from "../paths.js";

export interface BuildInfo {
  version: string;
  gitRevision: string;
  gitTimestamp: string;
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 2000 }).trim();
  } catch {
    return "";
  }
}

let cached: BuildInfo | undefined;

/** `overrides` come from the configuration (PARAPET_GIT_REVISION / PARAPET_GIT_TIMESTAMP). */
export function buildInfo(overrides: { gitRevision?: string; gitTimestamp?: string } = {}): BuildInfo {
  if (!cached) {
    const pkg = JSON.parse(readFileSync(projectFile("package.json"), "utf8")) as { version: string };
    cached = {
      version: pkg.version,
      gitRevision: overrides.gitRevision || git(["rev-parse", "HEAD"]) || "unknown",
      gitTimestamp: overrides.gitTimestamp || git(["log", "-1", "--format=%cI"]) || "unknown",
    };
  }
  return cached;
}
