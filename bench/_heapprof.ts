import inspector from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { startApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createLogger } from "../src/observability/logger.js";
const config = loadConfig();
const app = await startApp(config, createLogger(config.logLevel));
const s = new inspector.Session(); s.connect();
await new Promise((r) => setTimeout(r, 3000)); // warm-up happens by the driver
await s.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as any);
await new Promise((r) => setTimeout(r, 4000));
const { profile } = (await s.post("HeapProfiler.stopSampling")) as any;
const self = new Map<string, number>();
const walk = (n: any, stack: string[]) => {
  const name = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
  self.set(name, (self.get(name) ?? 0) + n.selfSize);
  for (const c of n.children) walk(c, stack);
};
walk(profile.head, []);
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log("total sampled MB", (total / 1048576).toFixed(1));
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((v / 1048576).toFixed(2).padStart(8), k);
writeFileSync("/tmp/pp/heap.json", JSON.stringify(profile));
await app.close(); process.exit(0);
