// The report: printed as it is written, and kept so that --write-docs can put
// the held-out test split's figures into docs/detectors.md.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { EvalTexts } from "./corpus.js";
import { FILLS_PER_LOCALE } from "./held-out.js";
import type { Options } from "./options.js";
import { PER_TEMPLATE } from "./samples.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export class Report {
  readonly lines: string[] = [];

  readonly out = (s: string): void => {
    this.lines.push(s);
    console.log(s);
  };
}

/** What the figures are measured on. */
export function reportHeader(report: Report, texts: EvalTexts, { split, legacy }: Options, seed: number): void {
  const { out } = report;
  const { templates, chosen, samples, benign, locales, multilingual, languages } = texts;
  if (legacy) {
    out(
      `Split: ${split}, by template only (${chosen.length} of ${templates.length} templates x ${PER_TEMPLATE} fillings = ${samples.length} texts, names of 30 locales, US addresses, US and 15 countries' phones; faker seed ${seed}; ${benign.length} clean English prompts)`,
    );
  } else {
    const groups = [...new Set(locales.map((l) => l.group))];
    out(
      `Split: ${split}, held out by template and locale (${chosen.length} of ${templates.length} templates x ${locales.length} locales in ${groups.length} groups x ${FILLS_PER_LOCALE} fillings = ${samples.length} texts; faker seed ${seed}).`,
    );
    out(`Locales: ${locales.map((l) => l.locale).join(", ")}.`);
    out(`Clean text: ${benign.length} English prompts; ${multilingual.length} texts in ${languages.join(", ")}.`);
  }
  out("Span-level, overlap matching. FPR = share of clean texts with any span at or above the threshold.");
  out("");
}

/** Replaces the block between the eval markers of docs/detectors.md with the report; exits 2 for any split but the held-out test split. */
export function writeDocs(report: Report, { split, legacy }: Options): void {
  if (split !== "test" || legacy) {
    console.error("--write-docs writes the held-out test split's figures only.");
    process.exit(2);
  }
  const docs = resolve(repoRoot, "docs/detectors.md");
  const text = readFileSync(docs, "utf8");
  const begin = "<!-- eval:begin -->";
  const end = "<!-- eval:end -->";
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`docs/detectors.md has no ${begin} ... ${end} block.`);
    process.exit(1);
  }
  writeFileSync(docs, `${text.slice(0, a + begin.length)}\n${report.lines.join("\n")}\n${text.slice(b)}`);
  console.log("\nwrote the figures into docs/detectors.md");
}
