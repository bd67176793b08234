// unknown_links (docs/decisions.md#unknown-links): URLs with or without a
// scheme, reduced to their registrable domain with the public suffix list
// (tldts), flagged unless the host is in the policy's `allowed_domains` or in
// the built-in list lexicons/well-known-domains.txt. Matching includes
// subdomains: `docs.python.org` is allowed by `python.org`. A match is
// deterministic, so every unknown URL is reported at l1_confident with its
// registrable domain as the span label.
//
// What counts as a URL:
//   - scheme URLs (http, https, ftp, ws, wss): always, whatever the host
//     (a raw IP host is unknown by definition)
//   - `www.` hosts: always
//   - bare hosts (`evil.xyz/path`, `bit.ly/x`, `xn--80ak6aa92e.com`): only with
//     an ICANN suffix and (a path or port, a subdomain, or a suffix people
//     write bare domains with), so that file names (`report.pdf`, `main.py`,
//     `README.md`), code (`user.name`, `item.id`, `Node.js`), abbreviations
//     (`e.g.`, `U.S.`), versions and numbers are not links
//   - e-mail addresses are not links (pii/email reports them)
// Internationalized hosts are compared in punycode, so `bücher.de` and
// `xn--bcher-kva.de` are the same host.
import { readFileSync } from "node:fs";
import { domainToASCII } from "node:url";
import { parse } from "tldts";
import { contentLocations, defineDetector, textOnly, type Detection } from "../detector.js";
import type { DetectorConfig } from "../vocabulary.js";
import { type Finding, toDetection } from "./findings.js";
import { LEXICONS } from "./lexicons/dir.js";
import { projectFile } from "../../paths.js";

const WELL_KNOWN: ReadonlySet<string> = new Set(
  readFileSync(projectFile(LEXICONS, "well-known-domains.txt"), "utf8")
    .split("\n")
    .map((l) => l.trim().toLowerCase())
    .filter((l) => l && !l.startsWith("#")),
);

// Suffixes people write bare domains with; other suffixes need a path, a port
// or a subdomain before a bare host counts (".py", ".md", ".sh", ".id", ".name"
// are real suffixes but far more often file extensions or code).
const BARE_SUFFIXES = new Set(
  (
    "com org net edu gov mil int info biz xyz top online site club shop store live life world news tech space website " +
    "click link download icu cfd sbs bond lol buzz work today rest fun vip win loan men party cam quest cyou monster " +
    "io co ai ly gg tv cc ws su ru cn uk us ca au nz de fr nl be es pt ch at se no dk fi pl cz sk hu ro bg gr tr ua by kz " +
    "ir in jp kr tw hk sg my th vn ph za ng ke eg ma br ar cl mx ve pe eu asia tk ml ga cf gq xxx porn sex"
  ).split(" "),
);
// Labels that read as code, not hosts ("window.location", "self.name").
const CODE_LABELS = new Set(
  "this self window document console object user item node row req res os sys math json array string event err error e el obj ctx app props state data config opts options args params".split(
    " ",
  ),
);

const SCHEME_URL = /\b(?:https?|ftp|wss?):\/\/[^\s<>"'`{}|\\^]+/gi;
const WWW_URL = /(?<![\p{L}\p{N}_@./-])www\.[^\s<>"'`{}|\\^]+/giu;
// Labels separated by dots (a label cannot contain a dot, so the repetition
// cannot backtrack into itself), a letter suffix, optional port and path.
const BARE_HOST = /(?<![\p{L}\p{N}_@./:-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})?\.)+(?:[\p{L}]{2,63}|xn--[a-z0-9-]{1,59})(?::\d{2,5})?(?:\/[^\s<>"'`{}|\\^]*)?/gu;

// A dot between two non-space characters: only the tokens around one can hold a bare host.
const INNER_DOT = /[^\s.]\.[^\s.]/g;

/** BARE_HOST matches, searched only in whitespace-delimited tokens that have an inner dot. */
function bareHosts(text: string): { index: number; 0: string }[] {
  const out: { index: number; 0: string }[] = [];
  let doneTo = -1;
  for (const d of text.matchAll(INNER_DOT)) {
    if (d.index < doneTo) continue;
    let s = d.index;
    while (s > 0 && !/\s/.test(text[s - 1])) s--;
    let e = d.index + 2;
    while (e < text.length && !/\s/.test(text[e])) e++;
    doneTo = e;
    // One character of context on the left keeps the look-behind honest.
    const from = Math.max(0, s - 1);
    for (const m of text.slice(from, e).matchAll(BARE_HOST)) out.push({ index: from + m.index, 0: m[0] });
  }
  return out;
}

/** Cuts trailing sentence punctuation and unbalanced closing brackets off a URL. */
function trimUrl(url: string): string {
  let u = url;
  for (;;) {
    const last = u.at(-1);
    if (last && ".,;:!?*'\"".includes(last)) u = u.slice(0, -1);
    else if (last === ")" && (u.match(/\(/g) ?? []).length < (u.match(/\)/g) ?? []).length) u = u.slice(0, -1);
    else if (last === "]" && !u.includes("[")) u = u.slice(0, -1);
    else if (last === ">" || last === "<") u = u.slice(0, -1);
    else return u;
  }
}

function hostOf(url: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  try {
    return new URL(withScheme).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return null;
  }
}

/** Normalizes an allowed_domains entry: scheme, "*.", path and port dropped, punycode. */
export function normalizeDomain(entry: string): string {
  let d = entry.trim().toLowerCase();
  d = d
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, "")
    .replace(/^\*\./, "")
    .replace(/^\.+/, "");
  d = d.split(/[/?#]/)[0].replace(/:\d+$/, "").replace(/\.$/, "");
  return domainToASCII(d) || d;
}

function listed(host: string, domains: ReadonlySet<string>): boolean {
  let h = host;
  for (;;) {
    if (domains.has(h)) return true;
    const dot = h.indexOf(".");
    if (dot < 0) return false;
    h = h.slice(dot + 1);
  }
}

interface Candidate {
  start: number;
  end: number;
  host: string;
}

function candidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  // Whether [s, e) overlaps a candidate already taken. Each pass yields matches in text order, so
  // earlier passes are checked with a moving cursor over their ranges (sorted, merged after each
  // pass) and the current pass by the furthest end it reached: a scan of every candidate per
  // match was quadratic in a text of many links.
  let before: Candidate[] = [];
  let cursor = 0;
  let passEnd = -1;
  const taken = (s: number, e: number) => {
    while (cursor < before.length && before[cursor].end <= s) cursor++;
    return passEnd > s || (cursor < before.length && before[cursor].start < e);
  };
  const take = (c: Candidate) => {
    out.push(c);
    passEnd = Math.max(passEnd, c.end);
  };
  const endPass = () => {
    before = [...out].sort((a, b) => a.start - b.start);
    cursor = 0;
    passEnd = -1;
  };
  for (const re of [SCHEME_URL, WWW_URL]) {
    for (const m of text.matchAll(re)) {
      const url = trimUrl(m[0]);
      const host = hostOf(url);
      if (!host || taken(m.index, m.index + url.length)) continue;
      take({ start: m.index, end: m.index + url.length, host });
    }
    endPass();
  }
  for (const m of bareHosts(text)) {
    const url = trimUrl(m[0]);
    const start = m.index;
    const end = start + url.length;
    if (taken(start, end)) continue;
    // Part of an e-mail address.
    if (text[end] === "@" || text[m.index + m[0].length] === "@") continue;
    const hostPart = url.split(/[/:]/)[0];
    const labels = hostPart.split(".");
    const tld = labels[labels.length - 1];
    // "results.Next": two sentences without a space, not a host.
    if (/\p{Lu}/u.test(tld) && !/\p{Lu}/u.test(labels[0])) continue;
    if (labels.some((l) => /\p{Ll}\p{Lu}/u.test(l))) continue; // camelCase code
    const host = hostOf(url);
    if (!host) continue;
    const p = parse(host);
    if (!p.isIcann || !p.domain) continue;
    const hasPath = url.length > hostPart.length;
    const suffix = (p.publicSuffix ?? "").split(".").pop() ?? "";
    const subdomain = (p.subdomain ?? "") !== "";
    const plausible = hasPath || subdomain || BARE_SUFFIXES.has(suffix) || host.startsWith("xn--") || host.includes(".xn--");
    if (!plausible) continue;
    if (!hasPath && !subdomain && CODE_LABELS.has(labels[0].toLowerCase())) continue;
    take({ start, end, host });
  }
  return out;
}

function findUnknownLinks(text: string, config: DetectorConfig = {}): Finding[] {
  const allowed = new Set((config.allowed_domains ?? []).map(normalizeDomain).filter(Boolean));
  const out: Finding[] = [];
  for (const c of candidates(text)) {
    const host = domainToASCII(c.host) || c.host;
    if (listed(host, allowed) || listed(host, WELL_KNOWN)) continue;
    const registrable = parse(host).domain ?? host;
    out.push({ start: c.start, end: c.end, level: "l1_confident", labels: [registrable] });
  }
  return out;
}

export function detectUnknownLinks(text: string, config: DetectorConfig = {}): Detection {
  return toDetection(findUnknownLinks(text, config));
}

/**
 * `allowed_domains` entries are a registrable domain exactly: domain name and
 * public suffix, no scheme, no `www.`, no subdomain, no path or port. Policy
 * validation and policy health report entries this returns a problem for.
 */
export function allowedDomainProblem(entry: string): string | null {
  if (!/^[a-z0-9.-]+$/i.test(entry)) return "must be a bare domain such as example.com (no scheme, path, port or spaces)";
  const p = parse(entry, { allowPrivateDomains: true });
  if (p.isIp) return "must be a domain name, not an IP address";
  if (!p.domain || !p.publicSuffix) return "is not a registrable domain under a public suffix";
  if (p.domain !== entry.toLowerCase()) {
    return p.subdomain === "www" ? `must not start with www. (use ${p.domain})` : `must not include a subdomain (use ${p.domain})`;
  }
  return null;
}

export const unknownLinks = defineDetector({
  type: "unknown_links",
  kind: "exact",
  meaningful: contentLocations,
  accepts: ["allowed_domains"],
  logFamily: "unknown_links",
  counter: "unknown_links_flagged",
  console: { family: "Links", defaults: ["assistant::content"] },
  detect: textOnly(detectUnknownLinks),
});
