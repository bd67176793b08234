// Adds lock entries for optional platform packages of other operating systems
// and CPUs (e.g. @bufbuild/buf-darwin-arm64) that the registry reachable from
// the build machines does not serve. Without them `npm ci` stops with
// "Missing: <pkg>@ from lock file"; with them it records the platform and
// skips the package on this machine, as it would on any other registry.
// Run after changing dependencies: `npm run lock:platforms`.
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

const osNames = ["darwin", "linux", "win32", "freebsd", "openbsd", "netbsd", "android", "sunos", "aix", "openharmony", "cygwin"];
const cpuNames = {
  x64: "x64",
  x86_64: "x64",
  arm64: "arm64",
  aarch64: "arm64",
  arm: "arm",
  armv7: "arm",
  eabihf: "arm",
  ia32: "ia32",
  x86: "ia32",
  ppc64: "ppc64",
  ppc64le: "ppc64",
  s390x: "s390x",
  riscv64: "riscv64",
  loong64: "loong64",
  mips64el: "mips64el",
  universal: null,
  wasm32: "wasm32",
};

function platformOf(name) {
  const tokens = name.split("/").pop().split(/[-_]/);
  const os = tokens.find((t) => osNames.includes(t)) ?? (tokens.includes("win") || tokens.includes("windows") ? "win32" : tokens.includes("macos") ? "darwin" : null);
  const cpuToken = tokens.find((t) => t in cpuNames);
  const cpu = cpuToken ? cpuNames[cpuToken] : null;
  const libc = tokens.includes("musl") ? "musl" : tokens.includes("gnu") || tokens.includes("gnueabihf") ? "glibc" : null;
  return { os, cpu, libc };
}

/** Where node would resolve `dep` from the package at `path`. */
function resolved(path, dep) {
  let base = path;
  for (;;) {
    const candidate = `${base ? `${base}/` : ""}node_modules/${dep}`;
    if (packages[candidate]) return candidate;
    if (!base) return null;
    const i = base.lastIndexOf("/node_modules/");
    base = i < 0 ? "" : base.slice(0, i);
  }
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolved(path, dep)) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue;
    const version = range.replace(/^[\^~=]/, "");
    packages[`node_modules/${dep}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`added ${added} lock entries for other platforms`);
