// tool_risk/untrusted_destination and tool_risk/untrusted_source.
// Destinations are URLs, bare hosts, e-mail addresses and IP
// addresses in the arguments, reduced to the registrable domain with the
// public suffix list (tldts). A destination is trusted when its domain (or a
// parent) is in the built-in well-known list that unknown_links uses
// (detectors/lexicons/well-known-domains.txt) or in this module's short
// supplement; tool_risk has no allowed_domains field (docs/decisions.md#tool-risk-destinations).
import { existsSync, readFileSync } from "node:fs";
import { parse } from "tldts";
import { LEXICONS } from "../../lexicons/dir.js";
import { projectFile } from "../../../../paths.js";

/** Services agents commonly send to that the shared list may not carry. */
const SUPPLEMENT =
  "google.com googleapis.com gmail.com microsoft.com outlook.com office.com live.com github.com gitlab.com slack.com zoom.us " +
  "atlassian.net atlassian.com notion.so salesforce.com stripe.com paypal.com dropbox.com box.com amazonaws.com amazon.com " +
  "openai.com anthropic.com wikipedia.org example.com example.org example.net twilio.com sendgrid.net hubspot.com " +
  "zendesk.com shopify.com apple.com icloud.com yahoo.com proton.me protonmail.com linkedin.com x.com twitter.com";

let trusted: Set<string> | undefined;

function trustedDomains(): Set<string> {
  if (trusted) return trusted;
  const set = new Set(SUPPLEMENT.split(/\s+/));
  const shared = projectFile(LEXICONS, "well-known-domains.txt");
  if (existsSync(shared)) {
    for (const line of readFileSync(shared, "utf8").split("\n")) {
      const d = line.trim().toLowerCase();
      if (d && !d.startsWith("#")) set.add(d);
    }
  }
  trusted = set;
  return set;
}

function isTrustedHost(host: string): boolean {
  const set = trustedDomains();
  let h = host.toLowerCase().replace(/\.$/, "");
  for (;;) {
    if (set.has(h)) return true;
    const dot = h.indexOf(".");
    if (dot < 0) return false;
    h = h.slice(dot + 1);
  }
}

export interface Destination {
  kind: "url" | "email" | "host" | "ip";
  /** Registrable domain, or the IP address. */
  domain: string;
  start: number;
  end: number;
  trusted: boolean;
  /** Private, loopback or link-local addresses: internal, not a destination outside. */
  internal: boolean;
}

const URL_RE = /\b(?:https?|ftp|sftp|wss?):\/\/[^\s"'<>`]+/gi;
const HOST_RE = /(?<![\w@./-])(?:[a-z0-9-]{1,63}\.)+[a-z]{2,24}(?::\d{2,5})?(?:\/[^\s"'<>`]*)?/gi;
const IP_RE = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g;
const FILE_EXT = /\.(?:pdf|txt|csv|json|ya?ml|md|py|js|ts|html?|png|jpe?g|gif|zip|gz|tar|xlsx?|docx?|pptx?|log|sh|sql|env|xml|ini|conf|cfg|lock|mp[34])$/i;

function classifyHost(host: string): { domain: string; trusted: boolean; internal: boolean; ip: boolean } | null {
  const p = parse(host);
  if (p.isIp) {
    const internal = /^(?:10\.|127\.|192\.168\.|169\.254\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.)/.test(p.hostname ?? host);
    return { domain: p.hostname ?? host, trusted: false, internal, ip: true };
  }
  if (!p.domain || !p.isIcann) {
    if (p.hostname === "localhost") return { domain: "localhost", trusted: false, internal: true, ip: false };
    return null;
  }
  return { domain: p.domain, trusted: isTrustedHost(p.hostname ?? p.domain), internal: false, ip: false };
}

/** Characters of an e-mail's local part and of a domain label (ASCII, either case). */
const LOCAL = new Uint8Array(128);
const LABEL = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  LOCAL[c] = /[a-z0-9._%+-]/i.test(ch) ? 1 : 0;
  LABEL[c] = /[a-z0-9-]/i.test(ch) ? 1 : 0;
}
const isLocal = (c: number) => c < 128 && LOCAL[c] === 1;
const isLabel = (c: number) => c < 128 && LABEL[c] === 1;

/**
 * What `/[a-z0-9._%+-]+@([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi` matches, found from
 * each "@" outwards: the regex retried its unbounded local part at every start
 * of a long run without "@", quadratic in the run (200k characters took 25 s).
 */
function* emails(value: string): Generator<{ start: number; end: number; domain: string }> {
  let lastEnd = 0;
  for (let at = value.indexOf("@"); at >= 0; at = value.indexOf("@", Math.max(at + 1, lastEnd))) {
    let start = at;
    while (start > lastEnd && isLocal(value.charCodeAt(start - 1))) start--;
    if (start === at) continue;
    let end = at + 1;
    while (end < value.length && isLabel(value.charCodeAt(end))) end++;
    if (end === at + 1) continue;
    let dots = 0;
    for (;;) {
      if (value.charCodeAt(end) !== 46 || !isLabel(value.charCodeAt(end + 1))) break;
      end += 2;
      while (end < value.length && isLabel(value.charCodeAt(end))) end++;
      dots++;
    }
    if (dots === 0) continue;
    yield { start, end, domain: value.slice(at + 1, end) };
    lastEnd = end;
  }
}

/** Destinations in one argument value; offsets are relative to the value. */
export function destinationsIn(value: string): Destination[] {
  const out: Destination[] = [];
  // Ranges already taken, sorted and disjoint. Each pattern's matches come in
  // text order and never overlap one another, so one pass is checked against
  // the earlier passes with a moving cursor and merged in afterwards.
  let taken: [number, number][] = [];
  let added: [number, number][] = [];
  let cursor = 0;
  const overlaps = (s: number, e: number) => {
    while (cursor < taken.length && taken[cursor][1] <= s) cursor++;
    return cursor < taken.length && taken[cursor][0] < e;
  };
  const add = (kind: Destination["kind"], host: string, s: number, e: number) => {
    if (overlaps(s, e)) return;
    const c = classifyHost(host);
    if (!c) return;
    added.push([s, e]);
    out.push({ kind: c.ip ? "ip" : kind, domain: c.domain, start: s, end: e, trusted: c.trusted, internal: c.internal });
  };
  const endPass = () => {
    const merged: [number, number][] = [];
    let i = 0;
    let j = 0;
    while (i < taken.length || j < added.length) merged.push(j >= added.length || (i < taken.length && taken[i][0] < added[j][0]) ? taken[i++] : added[j++]);
    taken = merged;
    added = [];
    cursor = 0;
  };
  for (const m of value.matchAll(URL_RE)) {
    try {
      add("url", new URL(m[0]).hostname, m.index, m.index + m[0].length);
    } catch {
      /* not a URL after all */
    }
  }
  endPass();
  for (const m of emails(value)) add("email", m.domain, m.start, m.end);
  endPass();
  for (const m of value.matchAll(IP_RE)) add("ip", m[0], m.index, m.index + m[0].length);
  endPass();
  for (const m of value.matchAll(HOST_RE)) {
    const host = m[0].replace(/[:/].*$/, "");
    if (FILE_EXT.test(host) && !m[0].includes("/")) continue;
    add("host", host, m.index, m.index + m[0].length);
  }
  return out;
}

/** Keys whose value is where data goes. */
const DEST_KEY =
  /^(to|cc|bcc|recipients?|email|emails|address|url|uri|endpoint|webhook|webhook_?url|callback(_?url)?|host|hostname|server|destination|dest|target|share_?with|remote|upload_?url|post_?url|channel_?url|recipient_email|send_to|forward_to|smtp_host|attendees|invitees|members|domain)$/i;
/** Tool names that send something out. */
const SEND_WORDS = new Set(
  "send post upload share webhook email mail http request curl fetch transfer export sftp ftp push publish notify forward invite put wget scp rsync call".split(" "),
);

export type DestinationContext = "destination_field" | "sending_tool" | "mentioned";

export function destinationContext(key: string, toolWords: string[]): DestinationContext {
  if (DEST_KEY.test(key)) return "destination_field";
  if (toolWords.some((w) => SEND_WORDS.has(w))) return "sending_tool";
  return "mentioned";
}

/** Signature the calibrated level table is keyed by (models/manifest.json, rules). */
export function destinationSignature(d: Destination, context: DestinationContext): string {
  return `${d.kind === "ip" ? "ip" : d.kind === "email" ? "email" : "domain"}:${context}`;
}
