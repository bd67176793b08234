// Text pii/name leaves alone because it belongs to other detectors, is encoded data or is a firm list.
import { findAddresses } from "../address/index.js";
import { ORG_LIST_CUE, PEOPLE_LIST_CUE } from "./cues.js";
import { FIRM_HINT, FIRM_LIST, FIRM_SUFFIX, FOREIGN_CONJUNCTIONS } from "./firms.js";
import { lexiconKind } from "./kinds.js";
import { COMMON } from "./lexicons.js";

const ENCODED = /[A-Za-z0-9+/]{20,}={0,2}/g;

/** Regions other detectors own: e-mail addresses, URLs and street addresses hold name-like words. */
export function blockedRanges(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  // The whitespace-delimited chunk around each "@", "://" or "www." (found with indexOf: a
  // \S* regex would rescan long chunks from every position).
  for (const marker of ["@", "://", "www."]) {
    let at = text.indexOf(marker);
    while (at !== -1) {
      let s = at;
      while (s > 0 && !/\s/.test(text[s - 1])) s--;
      let e = at + marker.length;
      while (e < text.length && !/\s/.test(text[e])) e++;
      out.push({ start: s, end: e });
      at = text.indexOf(marker, e);
    }
  }
  // Base64 and other encoded blobs (in JSON, data: URLs, tokens): "+" and "/" split them into
  // name-like pieces ("Tm9y/Kevin+Smith/Abc=="). A run of 20+ such characters with no space, holding
  // a "+" or "/" and a digit or padding, is data.
  for (const m of text.matchAll(ENCODED)) {
    if (/[+/]/.test(m[0]) && /[\d=]/.test(m[0])) out.push({ start: m.index, end: m.index + m[0].length });
  }
  for (const a of findAddresses(text)) {
    if (a.level === "l4_less_likely" || a.level === "l5_unlikely") continue;
    // The town after a street line ("354 Hintz Summit, Hagen") is part of the address.
    const rest = /^[^.!?]*?(?=[.!?](?:\s|$)|$)/.exec(text.slice(a.end, a.end + 60));
    const lineEnd = text.indexOf("\n", a.end);
    let end = a.end + (rest ? rest[0].length : 0);
    if (lineEnd >= 0 && lineEnd < end) end = lineEnd;
    // Multi-line blocks: the next two lines hold the town and country.
    if (lineEnd === a.end || (lineEnd > a.end && lineEnd - a.end < 3)) end = nthLineEnd(text, a.end, 3);
    out.push({ start: a.start, end });
  }
  // The list regex is costly over long texts: run it only near a conjunction between capitalised words.
  const windows: [number, number][] = [];
  for (const h of text.matchAll(FIRM_HINT)) {
    const from = Math.max(0, h.index - 160);
    const last = windows[windows.length - 1];
    if (last && from <= last[1]) last[1] = h.index + 80;
    else windows.push([from, h.index + 80]);
  }
  const firmMatches: { index: number; 0: string; 1: string }[] = [];
  for (const [from, to] of windows) {
    const chunk = text.slice(from, to);
    for (const m of chunk.matchAll(FIRM_LIST)) if (!firmMatches.some((f) => f.index === from + m.index)) firmMatches.push({ index: from + m.index, 0: m[0], 1: m[1] });
  }
  for (const m of firmMatches) {
    // "... y Véliz Ochoa's Бобров Сократ": the firm ends at its possessive.
    const possessive = m[0].search(/['’]s\s/);
    if (possessive > 0) m[0] = m[0].slice(0, possessive);
    const conj = m[1].toLowerCase();
    const items = m[0]
      .split(/,\s*|\s+(?:and|&|e|y|und|et|en|och|og|i|és|ve|u)\s+/)
      .map((it) => it.replace(/^(?:The|de|van|von|da|di|del|la|le|van de|van der|de la) /, ""));
    // People listed by given name ("Alice, Bob and Carol") versus firms of surnames, some
    // of which are also given names ("Hansen, Ryan and Green"): the majority decides.
    const givenCount = items.filter((it) => {
      const first = it.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
      return lexiconKind(first) === "given" && !COMMON.has(first);
    }).length;
    const singleWords = items.every((it) => !/\s/.test(it.trim()));
    const givenStart = givenCount === items.length || !singleWords;
    // "our 3 founders: Msibi, Taufratshofer and Holan" lists people.
    const people = PEOPLE_LIST_CUE.test(text.slice(Math.max(0, m.index - 40), m.index));
    if (people) continue;
    const orgCue = ORG_LIST_CUE.test(text.slice(Math.max(0, m.index - 30), m.index));
    if (
      orgCue ||
      FOREIGN_CONJUNCTIONS.has(conj) ||
      (items.length >= 3 && !givenStart) ||
      FIRM_SUFFIX.test(text.slice(m.index + m[0].length, m.index + m[0].length + 24))
    ) {
      out.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  return out;
}

function nthLineEnd(text: string, from: number, n: number): number {
  let at = from;
  for (let i = 0; i < n; i++) {
    const next = text.indexOf("\n", at + 1);
    if (next < 0) return text.length;
    at = next;
  }
  return at;
}
