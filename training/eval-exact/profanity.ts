// moderated_content/profanity: the corpus's single-word terms on the split's
// side put into neutral sentences, plain and obfuscated, recall by severity;
// sentences with Scunthorpe-style words and the clean English prompts for false
// hits.
import type { ProfanityTerm } from "./corpus.js";
import { exactDetectors, noConfig } from "./detectors.js";
import type { Report } from "./report.js";
import { atOrAbove, pct } from "./scoring.js";

const FRAMES = [
  "Well, {w} that, I am done with this project.",
  "He called the driver a {w} and left.",
  "What a {w} day it has been.",
  "Honestly this is {w} and I want a refund.",
  "Stop being such a {w}, please.",
  "The report said {w} twice in the summary.",
];
const SCUNTHORPE = [
  "Scunthorpe United won at home on Saturday.",
  "The assassin was never found.",
  "Our class meets in the Essex campus.",
  "Order a cocktail at the bar in Sussex.",
  "Say hello to the shell script.",
  "Dick Van Dyke starred in the film.",
  "Please assess the analysis of the grape harvest.",
  "The therapist cited a cumulative document.",
  "Press the button to pass the title.",
  "Shiitake mushrooms grow on the hillside.",
  "Skyscrapers in Middlesex are rare.",
  "The cockpit of the cocker spaniel's transport.",
  "Use a bass guitar and a matchbox.",
  "The Hancock tower's shadow over Penistone.",
  "Arsenal beat Sheffield Wednesday.",
  "Can you assist me with my homework?",
  "A circumspect raccoon ate the peacock's food.",
  "The analyst documented the spice trade.",
];
const OBFUSCATIONS: Record<string, (w: string) => string> = {
  plain: (w) => w,
  capitalised: (w) => w[0].toUpperCase() + w.slice(1),
  leet: (w) => w.replace(/a/g, "4").replace(/e/g, "3").replace(/i/g, "1").replace(/o/g, "0").replace(/s/g, "$"),
  spaced: (w) => w.split("").join(" "),
  dotted: (w) => w.split("").join("."),
  repeated: (w) => w.replace(/[aeiou]/, (v) => v.repeat(4)),
  masked: (w) => (w.length > 3 ? w[0] + "*".repeat(w.length - 3) + w.slice(-2) : w),
  homoglyph: (w) => w.replace(/a/g, "а").replace(/o/g, "о").replace(/e/g, "е"),
};

const detect = exactDetectors["moderated_content/profanity"];
const flagged = (text: string) => detect(text, noConfig).spans.some((s) => atOrAbove(s.level, "l4_less_likely"));

/** Share of the terms, severe and mild apart, found in their sentence after one obfuscation. */
function recall(terms: ProfanityTerm[], ob: (w: string) => string) {
  const hit = { strong: 0, strongN: 0, mild: 0, mildN: 0 };
  for (const [i, { term, severity }] of terms.entries()) {
    const frame = FRAMES[i % FRAMES.length];
    const word = ob(term);
    const [a, b] = frame.split("{w}");
    const text = a + word + b;
    const found = detect(text, noConfig).spans.some((s) => atOrAbove(s.level, "l4_less_likely") && s.start < a.length + word.length && a.length < s.end);
    if (severity >= 2) {
      hit.strongN++;
      if (found) hit.strong++;
    } else {
      hit.mildN++;
      if (found) hit.mild++;
    }
  }
  return hit;
}

export function reportProfanity(report: Report, terms: ProfanityTerm[], benign: string[]): void {
  const { out } = report;
  out(
    `moderated_content/profanity (${terms.length} single-word terms of profanity_en.csv in this split, ${FRAMES.length} neutral sentence frames, ${SCUNTHORPE.length} clean sentences with Scunthorpe-style words, all written for this script):`,
  );
  out("");
  out("| obfuscation | recall, severity >= 2 (moderate, severe) | recall, severity < 2 (mild) |");
  out("|---|---:|---:|");
  for (const [name, ob] of Object.entries(OBFUSCATIONS)) {
    const hit = recall(terms, ob);
    out(`| ${name} | ${pct(hit.strong / Math.max(1, hit.strongN))} (${hit.strongN}) | ${pct(hit.mild / Math.max(1, hit.mildN))} (${hit.mildN}) |`);
  }
  const cleanHits = SCUNTHORPE.filter(flagged).length;
  const benignHits = benign.filter(flagged).length;
  out("");
  out(`Scunthorpe-style clean sentences flagged: ${cleanHits}/${SCUNTHORPE.length}; benign prompts flagged: ${pct(benignHits / Math.max(1, benign.length))}`);
  out("");
}
