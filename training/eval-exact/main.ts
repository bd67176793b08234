// Evaluation of the exact (non-learned) detectors.
//
//   npm run eval:exact                        headline figures: held-out templates x held-out locales (test)
//   npm run eval:exact -- --split tune        the same on the tuning side (tune templates x tune locales)
//   npm run eval:exact -- --split tune --errors pii/name [--locale de]
//                                             misses and false hits (tune only)
//   npm run eval:exact -- --by template       the older split: templates only, every locale on both sides
//                                             (names of 30 locales, US addresses, US and 15 countries' phones)
//   npm run eval:exact -- --write-docs        also write the test figures into docs/detectors.md
//
// Data, read at run time from the corpora directory named by PARAPET_CORPORA
// (never copied into the repository; see docs/training.md and corpus.ts):
// sentence templates whose {{slots}} are filled by faker (samples.ts), clean
// English and other-language text, profanity terms. How texts are held out:
// held-out.ts; how spans are scored: scoring.ts.
//
// The sections, in report order: the PII tables (pii.ts), the national
// identifiers (national-ids.ts, on its own seeded draws), unknown_links,
// moderated_content/profanity, speed. The faker draws of one section follow
// those of the one before, so the sections run in this order.
import { requireCorpora } from "../corpora.js";
import { corpusFiles, loadTexts, readProfanityTerms } from "./corpus.js";
import { seedFakers, seedOf } from "./fake-data.js";
import { parseOptions } from "./options.js";
import { reportNationalIds } from "./national-ids.js";
import { reportPii } from "./pii.js";
import { reportProfanity } from "./profanity.js";
import { Report, reportHeader, writeDocs } from "./report.js";
import { reportSpeed } from "./speed.js";
import { reportUnknownLinks } from "./unknown-links.js";

const options = parseOptions(process.argv.slice(2));
requireCorpora("eval-exact", corpusFiles(options.legacy));
const seed = seedOf(options.split);
seedFakers(seed);
const texts = loadTexts(options);

const report = new Report();
reportHeader(report, texts, options, seed);
reportPii(report, texts, options);
reportNationalIds(report, texts, seed);
reportUnknownLinks(report, texts.benign);
reportProfanity(report, readProfanityTerms(options.split), texts.benign);
reportSpeed(report, texts);
if (options.writeDocs) writeDocs(report, options);
