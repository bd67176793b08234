// unknown_links: generated sentences with a link of an unknown domain (gold)
// or of a well-known or allowed one (not gold), sentences with dotted words
// that are not links, and the clean English prompts.
import type { DetectorConfig } from "../../src/screening/vocabulary.js";
import { exactDetectors, noConfig } from "./detectors.js";
import { faker, pick } from "./fake-data.js";
import type { Report } from "./report.js";
import { newCounts, pct, prf, score, type Region } from "./scoring.js";

const KNOWN = [
  "https://github.com/nodejs/node/issues/123",
  "docs.python.org/3/library/re.html",
  "www.wikipedia.org",
  "https://www.google.com/search?q=x",
  "en.wikipedia.org/wiki/Lisbon",
  "https://learn.microsoft.com/en-us/dotnet/",
  "stackoverflow.com/questions/1",
  "https://www.nytimes.com/2024/01/01/world.html",
  "https://www.bbc.co.uk/news",
  "youtube.com/watch?v=abc",
  "https://portal.acme-internal.com/login",
  "acme-internal.com",
];
const FRAMES = [
  "Check this out: {u}",
  "Open {u} and log in with your account.",
  "I found it at {u}, is it safe?",
  "Download the update from {u}.",
  "Click here -> {u} <- to claim your prize",
  "See ({u}) for details.",
  "The page {u} keeps crashing.",
];
/** Tricky negatives: dotted words, versions, abbreviations and an e-mail address. */
const NOT_LINKS = [
  "Please attach report.pdf and index.js to the ticket.",
  "We upgraded to version 2.4.1 last week.",
  "Use Node.js 20 and TypeScript 5.9, e.g. for the build.",
  "The U.S. team met at 3 p.m. in the lab.",
  "Email me at jane.doe@example.org when done.",
  "Rename main.py to app.py and run it.",
  "See README.md and setup.cfg in the repo.",
  "It costs 3.50 euros, i.e. cheap.",
  "Pi is about 3.14159 and e is 2.71828.",
  "Ask Dr. Smith about the results.Next week we meet again.",
  "The file archive.tar.gz is 2.3 MB.",
  "Mr. Jones arrived at 10 a.m. sharp.",
];
const SENTENCES = 200;

/** A sentence with one link; the link is gold unless it is a known or allowed domain. */
function linkSentence(): { text: string; gold: Region[] } {
  const frame = pick(FRAMES);
  const r = faker.number.float({ min: 0, max: 1 });
  let url: string;
  let unknown = true;
  if (r < 0.35) url = faker.internet.url();
  else if (r < 0.5) url = `www.${faker.internet.domainWord()}.${pick(["org", "net", "info", "biz", "xyz", "top"])}`;
  else if (r < 0.65) url = `${faker.internet.domainWord()}-${faker.internet.domainWord()}.${pick(["xyz", "top", "click", "ru", "tk", "io", "co"])}/${faker.word.noun()}`;
  else if (r < 0.72) url = `https://xn--${faker.string.alphanumeric({ length: 8, casing: "lower" })}.com/${faker.word.noun()}`;
  else if (r < 0.78) url = `http://${faker.internet.ipv4()}/${faker.word.noun()}.exe`;
  else {
    url = pick(KNOWN);
    unknown = false;
  }
  const [a, b] = frame.split("{u}");
  return { text: a + url + b, gold: unknown ? [{ start: a.length, end: a.length + url.length }] : [] };
}

export function reportUnknownLinks(report: Report, benign: string[]): void {
  const cfg: DetectorConfig = { allowed_domains: ["acme-internal.com"] };
  const detect = exactDetectors.unknown_links;
  const c = newCounts();
  let n = 0;
  for (let k = 0; k < SENTENCES; k++) {
    const { text, gold } = linkSentence();
    score(detect(text, cfg).spans, gold, [], "l4_less_likely", c);
    n++;
  }
  let negFlagged = 0;
  for (const text of NOT_LINKS) if (detect(text, cfg).spans.length > 0) negFlagged++;
  let cleanFlagged = 0;
  for (const text of benign) if (detect(text, noConfig).spans.length > 0) cleanFlagged++;
  const m = prf(c);
  const { out } = report;
  out(`unknown_links (${n} generated sentences, 12 tricky negatives written for this script, allowed_domains ["acme-internal.com"]):`);
  out("");
  out("| detector | gold spans | precision | recall | F1 | tricky negatives flagged | benign texts with a link flagged |");
  out("|---|---:|---:|---:|---:|---:|---:|");
  out(`| unknown_links | ${c.gold} | ${pct(m.p)} | ${pct(m.r)} | ${pct(m.f1)} | ${negFlagged}/${NOT_LINKS.length} | ${pct(cleanFlagged / Math.max(1, benign.length))} |`);
  out("");
}
