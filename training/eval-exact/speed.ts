// How long the exact detectors take on text dense with PII (warm, one core):
// a figure to compare runs on one machine, not part of the accuracy tables.
import type { DetectorConfig } from "../../src/screening/vocabulary.js";
import type { EvalTexts } from "./corpus.js";
import { exactDetectors } from "./detectors.js";
import type { Report } from "./report.js";

const WARM_UP = 50;
const RUNS = 200;

export function reportSpeed(report: Report, { samples, benign }: EvalTexts): void {
  const chunk = samples.map((s) => s.text).join("\n") + benign.join("\n");
  const text = chunk.slice(0, 10_000);
  const cfg: DetectorConfig = { allowed_domains: [], override_list: ["ignore previous instructions"] };
  const all = Object.entries(exactDetectors);
  for (let i = 0; i < WARM_UP; i++) for (const [, d] of all) d(text, cfg);
  const per: string[] = [];
  let total = 0;
  for (const [name, d] of all) {
    const t0 = performance.now();
    for (let i = 0; i < RUNS; i++) d(text, cfg);
    const ms = (performance.now() - t0) / RUNS;
    total += ms;
    per.push(`${name} ${ms.toFixed(2)}`);
  }
  report.out(
    `Speed: all ${all.length} exact detectors on the first 10,000 characters of these texts (dense with PII): ${total.toFixed(2)} ms (warm, one core). Per detector, ms: ${per.join(", ")}.`,
  );
}
