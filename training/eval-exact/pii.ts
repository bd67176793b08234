// The PII tables: precision, recall and F1 of each pii/* detector on the filled
// templates, and clean-text FPR (the share of clean texts with any span at or
// above the threshold), at two thresholds; then per locale and per language.
// Macro F1 is the mean F1 of the eight pii/* types; a locale's macro F1 is the
// same mean over its own texts.
import type { Span } from "../../src/screening/detector.js";
import type { Level } from "../../src/screening/vocabulary.js";
import type { EvalTexts } from "./corpus.js";
import { PII_TYPES, exactDetectors, noConfig, type PiiType } from "./detectors.js";
import type { Options } from "./options.js";
import type { Report } from "./report.js";
import type { Sample } from "./samples.js";
import { atOrAbove, newCounts, pct, prf, score, type Counts } from "./scoring.js";

const THRESHOLDS: Level[] = ["l4_less_likely", "l2_very_likely"];
/** The locale-dependent types: the columns of the per-locale table. */
const LOCALE_COLUMNS: PiiType[] = ["pii/name", "pii/address", "pii/phone_number"];

/** One detector's spans on each sample, each clean English text and each other-language text. */
interface TypeSpans {
  spans: Span[][];
  clean: Span[][];
  multi: Span[][];
}
type PerType = Map<PiiType, TypeSpans>;
type ByLocale = Map<string, Map<PiiType, Counts>>;

export function reportPii(report: Report, texts: EvalTexts, options: Options): void {
  const perType: PerType = new Map();
  for (const type of PII_TYPES) {
    const detect = exactDetectors[type];
    perType.set(type, {
      spans: texts.samples.map((s) => detect(s.text, noConfig).spans),
      clean: texts.benign.map((t) => detect(t, noConfig).spans),
      multi: texts.multilingual.map((r) => detect(r.text, noConfig).spans),
    });
  }
  for (const threshold of THRESHOLDS) reportThreshold(report, texts, options, perType, threshold);
  if (options.legacy) reportNameRecallByLocale(report, texts.samples, perType.get("pii/name")!.spans);
}

function reportThreshold(report: Report, texts: EvalTexts, options: Options, perType: PerType, threshold: Level): void {
  const { out } = report;
  const { legacy } = options;
  out(`Threshold ${threshold}${threshold === "l4_less_likely" ? " (the default policy's)" : ""}:`);
  out("");
  out(
    legacy
      ? "| detector | gold spans | precision | recall | F1 | clean-text FPR |"
      : "| detector | gold spans | precision | recall | F1 | clean-text FPR, English | clean-text FPR, other languages |",
  );
  out(legacy ? "|---|---:|---:|---:|---:|---:|" : "|---|---:|---:|---:|---:|---:|---:|");
  const byLocale: ByLocale = new Map();
  const f1s: number[] = [];
  for (const type of PII_TYPES) {
    const showing = options.showErrors === type && threshold === "l4_less_likely";
    const spans = perType.get(type)!;
    const { counts: c, errors } = scoreSamples(type, threshold, texts.samples, spans.spans, byLocale, showing ? options : undefined);
    const clean = flaggedClean(threshold, texts, spans, options, showing);
    const m = prf(c);
    f1s.push(m.f1);
    const fpr = (flagged: number, n: number) => pct(flagged / Math.max(1, n));
    const row = `| ${type} | ${c.gold} | ${pct(m.p)} | ${pct(m.r)} | ${pct(m.f1)} | ${fpr(clean.english, texts.benign.length)} |`;
    out(legacy ? row : `${row} ${fpr(clean.other, texts.multilingual.length)} |`);
    if (errors.length || clean.errors.length) {
      console.error([...errors.slice(0, 1500), ...clean.errors].join("\n"));
    }
  }
  const macro = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  out("");
  if (legacy) {
    out(`PII macro F1 (mean of the eight types): ${pct(macro)}`);
    out("");
    return;
  }
  reportLocales(report, texts, perType, byLocale, threshold, macro);
}

/**
 * Scores one detector on the samples, adding to the per-locale counts too;
 * with `errorsOf`, also lists the false hits and misses (of its --locale only).
 */
function scoreSamples(type: PiiType, threshold: Level, samples: Sample[], spans: Span[][], byLocale: ByLocale, errorsOf?: Options): { counts: Counts; errors: string[] } {
  const c = newCounts();
  const errors: string[] = [];
  samples.forEach((s, i) => {
    const gold = s.gold.filter((g) => g.type === type);
    const ignore = s.ignore.filter((g) => g.types.includes(type));
    const lc = byLocale.get(s.locale) ?? new Map<PiiType, Counts>();
    byLocale.set(s.locale, lc);
    const perLocale = lc.get(type) ?? newCounts();
    lc.set(type, perLocale);
    const one = newCounts();
    const r = score(spans[i], gold, ignore, threshold, one);
    for (const counts of [c, perLocale]) {
      counts.tp += one.tp;
      counts.fp += one.fp;
      counts.gold += one.gold;
      counts.goldHit += one.goldHit;
    }
    if (errorsOf && (!errorsOf.errorLocale || s.locale === errorsOf.errorLocale)) {
      const tag = errorsOf.legacy ? "" : `[${s.locale}] `;
      for (const fp of r.fps) errors.push(`${tag}FP ${JSON.stringify(s.text.slice(fp.start, fp.end))} (${fp.level}) in ${JSON.stringify(s.text)}`);
      for (const m of r.misses) errors.push(`${tag}MISS ${JSON.stringify(s.text.slice(m.start, m.end))} in ${JSON.stringify(s.text)}`);
    }
  });
  return { counts: c, errors };
}

/**
 * How many clean texts, English and other languages, have a span at or above
 * the threshold (with --locale, only that locale's language); when `showing`,
 * up to 80 examples from each source (English, each other language).
 */
function flaggedClean(
  threshold: Level,
  texts: EvalTexts,
  spans: TypeSpans,
  { errorLocale }: Options,
  showing: boolean,
): { english: number; other: number; errors: string[] } {
  const errors: string[] = [];
  const shown = new Map<string, number>();
  const flaggedIn = (all: Span[][], sources: string[], tag: (i: number) => string) => {
    let flagged = 0;
    all.forEach((sp, i) => {
      const hits = sp.filter((h) => atOrAbove(h.level, threshold));
      if (hits.length === 0) return;
      flagged++;
      const n = shown.get(tag(i)) ?? 0;
      if (showing && n < 80) {
        shown.set(tag(i), n + 1);
        const text = sources[i];
        errors.push(
          `CLEAN${tag(i)} ${hits.map((h) => `${JSON.stringify(text.slice(h.start, h.end))}(${h.level})`).join(" ")} in ${JSON.stringify(text.slice(Math.max(0, hits[0].start - 60), hits[0].end + 40))}`,
        );
      }
    });
    return flagged;
  };
  const { benign, multilingual } = texts;
  const english = errorLocale ? 0 : flaggedIn(spans.clean, benign, () => "");
  const other = flaggedIn(
    errorLocale ? spans.multi.map((sp, i) => (multilingual[i].lang === errorLocale.replace(/_.*$/, "") ? sp : [])) : spans.multi,
    multilingual.map((r) => r.text),
    (i) => `[${multilingual[i].lang}]`,
  );
  return { english, other, errors };
}

/** Per locale: F1 of the locale-dependent types and the macro F1 over the locale's own texts; then clean-text FPR by language. */
function reportLocales(report: Report, texts: EvalTexts, perType: PerType, byLocale: ByLocale, threshold: Level, macro: number): void {
  const { out } = report;
  const rows = texts.locales.map((l) => {
    const lc = byLocale.get(l.locale)!;
    const typeF1 = (t: PiiType) => prf(lc.get(t) ?? newCounts()).f1;
    const withGold = PII_TYPES.filter((t) => (lc.get(t)?.gold ?? 0) > 0);
    const localeMacro = withGold.reduce((a, t) => a + typeF1(t), 0) / Math.max(1, withGold.length);
    return { l, cols: LOCALE_COLUMNS.map(typeF1), macro: localeMacro };
  });
  const worst = rows.reduce((a, b) => (b.macro < a.macro ? b : a));
  out(`PII macro F1 (mean of the eight types): ${pct(macro)}; worst locale: ${worst.l.locale} ${pct(worst.macro)}`);
  out("");
  out(`Per locale (${threshold}):`);
  out("");
  out("| locale | group | name F1 | address F1 | phone F1 | macro F1 |");
  out("|---|---|---:|---:|---:|---:|");
  for (const r of rows) out(`| ${r.l.locale} | ${r.l.group} | ${r.cols.map(pct).join(" | ")} | ${pct(r.macro)} |`);
  out("");
  out(`Clean-text FPR by language (${threshold}): name / address / phone`);
  out("");
  const { multilingual } = texts;
  out(
    texts.languages
      .map((lang) => {
        const idx = multilingual.map((r, i) => (r.lang === lang ? i : -1)).filter((i) => i >= 0);
        const rate = (t: PiiType) => idx.filter((i) => perType.get(t)!.multi[i].some((h) => atOrAbove(h.level, threshold))).length / Math.max(1, idx.length);
        return `${lang} ${LOCALE_COLUMNS.map((t) => pct(rate(t))).join(" / ")} (${idx.length})`;
      })
      .join("; "),
  );
  out("");
}

/** The older split: name recall by the locale the name came from, at the default threshold. */
function reportNameRecallByLocale(report: Report, samples: Sample[], spans: Span[][]): void {
  const byLocale = new Map<string, Counts>();
  samples.forEach((s, i) => {
    for (const g of s.gold.filter((x) => x.type === "pii/name")) {
      const c = byLocale.get(g.locale ?? "?") ?? newCounts();
      c.gold++;
      if (spans[i].some((p) => atOrAbove(p.level, "l4_less_likely") && g.start < p.end && p.start < g.end)) c.goldHit++;
      byLocale.set(g.locale ?? "?", c);
    }
  });
  report.out("pii/name recall by faker locale of the name (l4_less_likely):");
  report.out("");
  report.out(
    [...byLocale.entries()]
      .sort()
      .map(([loc, c]) => `${loc} ${pct(c.goldHit / c.gold)} (${c.gold})`)
      .join(", "),
  );
  report.out("");
}
