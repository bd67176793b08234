// The level of a run from its kinds of words and its context, and the
// evidence names listed together share.
import type { Level } from "../../../vocabulary.js";
import type { Finding } from "../../findings.js";
import { hasCue, NAMED_WORKS, PERSON_VERB_AFTER } from "./cues.js";
import { kindOf } from "./kinds.js";
import { isKnownTown } from "../gazetteer.js";
import { GIVEN, SURNAME, TITLES } from "./lexicons.js";
import { joined, type Run, sentenceStart } from "./runs.js";
import { isCap, type Token } from "./tokens.js";

const LATIN_LETTERS = /\p{Script=Latin}{3}/u;

/** Longest line (UTF-16 units) that counts as the run's own line: a signature, an address block, a "Name: ..." field. */
const WHOLE_LINE = 80;

// Given names that are also English verbs people start instructions with.
const IMPERATIVE_NAMES = new Set([
  "mark",
  "bill",
  "grant",
  "pat",
  "sue",
  "jack",
  "max",
  "rob",
  "chase",
  "don",
  "pierce",
  "lance",
  "josh",
  "nick",
  "wade",
  "cliff",
  "sandy",
  "rusty",
  "buck",
  "dash",
  "flick",
  "page",
  "skip",
  "tag",
  "will",
]);
// What follows a name as the subject of a sentence rather than an object: a verb or a conjunction.
const SUBJECT_FOLLOWS =
  /^\s*(?:$|[,.:;!?'’]|(?:and|or|is|was|has|had|will|would|can|could|should|may|might|must|did|does|do|said|says|went|came|told|got|made|took|gave|saw|knew|thought|left|felt|sent|wrote|called|asked|replied|who|from|of|at|in|here|there)\b|\p{L}+(?<!s)s\b|\p{L}+ed\b)/iu;

/** The words after a run read as a noun it qualifies or an object ("container", "ticket 4411", "access"), not as its verb. */
function imperativeAfter(after: string): boolean {
  return /^\s+\p{Ll}/u.test(after) && !SUBJECT_FOLLOWS.test(after);
}

// eslint-disable-next-line max-lines-per-function -- an ordered list of tuned rules, first match wins; read top to bottom it is the specification of a name's level (docs/detectors.md)
export function scoreRun(text: string, run: Run, allTokens: Token[], index: number): Level {
  const { tokens, kinds } = run;
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  const prev = index > 0 ? allTokens[index - 1] : undefined;
  const titled = prev !== undefined && TITLES.has(prev.raw.toLowerCase()) && joined(text, prev, first) && isCap(prev);
  const cue = hasCue(text, first.start, last.end);
  const strongCue = cue.strong;
  const placeCue = cue.place;
  // "Imke Peeters of Dickinson Group": after a name, "of" introduces an organisation.
  const ofAfterName = /\p{Lu}[\p{L}\p{M}'’-]+,? of $/u.test(text.slice(Math.max(0, first.start - 30), first.start));
  if (cue.org || ofAfterName) return kinds.includes("given") && tokens.length >= 2 ? "l4_less_likely" : "no_level";

  if (kinds.includes("cyrillic")) {
    const around = text.slice(Math.max(0, first.start - 30), first.start) + text.slice(last.end, last.end + 30);
    const inLatin = LATIN_LETTERS.test(around) && !/\p{Script=Cyrillic}{3}/u.test(around);
    kinds.forEach((k, i) => {
      if (k === "cyrillic") kinds[i] = inLatin ? "surname" : "unknown";
    });
  }
  const nameWords = kinds.filter((k) => k === "given" || k === "givenCommon" || k === "surname" || k === "surnameCommon" || k === "unknown");
  const givens = kinds.filter((k) => k === "given").length;
  const lexical = kinds.filter((k) => k === "given" || k === "surname").length;
  const weakLexical = kinds.filter((k) => k === "givenCommon" || k === "surnameCommon").length;
  const atStart = sentenceStart(text, first.start);
  // The run is a line by itself (a signature, an address block, "Name: ..." field).
  // Only a line under 80 characters qualifies, so its ends are looked for no further than that:
  // scanning to the ends of one long line for every run was quadratic in the line.
  const head = text.slice(Math.max(0, first.start - WHOLE_LINE), first.start);
  const tail = text.slice(last.end, last.end + WHOLE_LINE);
  const nlBefore = head.lastIndexOf("\n");
  const nlAfter = tail.indexOf("\n");
  const lineStart = nlBefore >= 0 ? first.start - head.length + nlBefore + 1 : first.start - head.length;
  const lineEnd = nlAfter >= 0 ? last.end + nlAfter : last.end + tail.length;
  const cut = (nlBefore < 0 && lineStart > 0) || (nlAfter < 0 && lineEnd < text.length);
  const wholeLine =
    !cut &&
    /^[\s>?*•-]*(?:[\p{L} ]{1,20}:\s*)?$/u.test(text.slice(lineStart, first.start)) &&
    /^[\s,.]*$/.test(text.slice(last.end, lineEnd)) &&
    lineEnd - lineStart < WHOLE_LINE;

  if (titled) return nameWords.length > 0 ? "l1_confident" : "no_level";
  // "the Becker website", "the Hobbits": an article before a capitalised word makes it a thing or a group.
  if (/\bthe\s+$/.test(text.slice(Math.max(0, first.start - 5), first.start))) {
    // ... unless the name qualifies a work or a family: "the Bodnár novel", "the Smith family".
    if (NAMED_WORKS.test(text.slice(last.end, last.end + 16)) && nameWords.length > 0) return "l4_less_likely";
    return givens > 0 && nameWords.length >= 2 ? "l4_less_likely" : "no_level";
  }
  // "a Docker container", "our Nginx server", "this Python script": a capitalised word between a
  // determiner and a lower-case noun names a product or a kind of thing, not a person ("An" capitalised
  // is left out: it is also a Vietnamese name).
  if (
    !strongCue &&
    !kinds.includes("given") &&
    /(?:^|[^\p{L}])(?:a|an|[Oo]ur|[Mm]y|[Yy]our|[Tt]heir|[Ii]ts|[Tt]his|[Tt]hese|[Tt]hose|[Ee]very|[Ee]ach|[Aa]ny|[Ss]ome|[Nn]o)\s+$/u.test(
      text.slice(Math.max(0, first.start - 7), first.start),
    ) &&
    imperativeAfter(text.slice(last.end, last.end + 16))
  )
    return "no_level";
  // "Mark ticket 4411 as resolved", "Bill the customer": a given name that is also a verb, opening a
  // sentence before its object, is an instruction.
  if (atStart && tokens.length === 1 && IMPERATIVE_NAMES.has(first.key) && !strongCue && imperativeAfter(text.slice(last.end, last.end + 16))) return "no_level";
  // "Kołodziej-Polak", "Melo-Nogueira" alone are as often firms as people.
  if (nameWords.length === 1 && tokens.length === 1 && first.key.includes("-") && !strongCue) {
    // ... unless both parts are given names: "Jean-Pierre", "Anna-Lena".
    const parts = first.key.split("-");
    if (!parts.every((p) => GIVEN.has(p) && !SURNAME.has(p))) return "l5_unlikely";
  }
  if (nameWords.length >= 2) {
    if (givens > 0 || (lexical > 0 && kinds.includes("initial"))) {
      if (placeCue) return "l4_less_likely";
      return strongCue ? "l1_confident" : "l2_very_likely";
    }
    if (lexical >= 2) return strongCue ? "l2_very_likely" : placeCue ? "l5_unlikely" : "l3_likely";
    if (lexical + weakLexical >= 2 && lexical >= 1) return strongCue ? "l2_very_likely" : placeCue ? "l5_unlikely" : "l4_less_likely";
    const personAfter = PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12)) || /^\s+(?:from|of|lives|at)\b/.test(text.slice(last.end, last.end + 8));
    // "Adaeze Okonkwo says ...", "Tanaka Yuki": an unknown given name before a known surname (or the
    // reverse, family name first) is a name wherever it stands.
    const pair = tokens.length === 2 && ((kinds[0] === "unknown" && kinds[1] === "surname") || (kinds[0] === "surname" && kinds[1] === "unknown"));
    if (lexical >= 1) return strongCue ? "l2_very_likely" : placeCue ? "l5_unlikely" : wholeLine || !atStart || personAfter || pair ? "l4_less_likely" : "l5_unlikely";
    if (weakLexical >= 1 && strongCue) return "l3_likely";
    // Two or three capitalised words that are neither English words nor known
    // names: a name from a culture the lexicon misses, more likely on a line of its own.
    const unknowns = kinds.filter((k) => k === "unknown").length;
    if (unknowns === 0 || (weakLexical > 0 && !wholeLine && !strongCue)) return "no_level";
    if (strongCue) return "l3_likely";
    if (placeCue) return "no_level";
    return wholeLine || !atStart || personAfter ? "l4_less_likely" : "no_level";
  }
  if (nameWords.length === 1) {
    const k = kinds.find((x) => x !== "initial" && x !== "particle");
    // Part of a Title-Case phrase ("Internal Optimization Consultant", "Salesperson of the Month").
    const prevTok = allTokens[index - 1];
    const nextTok = allTokens[index + tokens.length];
    const titleCase = (t: Token | undefined, a: Token, b: Token) => {
      if (t === undefined || !isCap(t) || !joined(text, a, b)) return false;
      const kt = kindOf(t);
      return kt === "word" || kt === "org" || (kt === "stop" && t.key.length > 3);
    };
    const before = titleCase(prevTok, prevTok ?? first, first);
    const after = titleCase(nextTok, last, nextTok ?? last);
    if ((k === "unknown" || k === "surname") && !strongCue && (before || after)) return "no_level";
    // "the Customer Brand Strategist": a name-like word between two Title-Case words.
    if (k === "given" && before && after) return "no_level";
    if (k === "given") {
      if (placeCue) return "l5_unlikely";
      return strongCue ? "l2_very_likely" : "l3_likely";
    }
    if (k === "surname") {
      if (strongCue) return "l3_likely";
      // "la guerra di Troia", "the road to Hamilton": a surname that is also a town, alone and with no
      // person's cue, is read as the town (under the default threshold).
      if (isKnownTown(first.key) && !PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12))) return "l5_unlikely";
      if (atStart && PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12))) return "l4_less_likely";
      return atStart || placeCue ? "l5_unlikely" : "l4_less_likely";
    }
    if (k === "givenCommon") {
      if (strongCue && !atStart) return "l3_likely";
      return atStart || placeCue ? "no_level" : "l5_unlikely";
    }
    if (k === "surnameCommon") return strongCue && !atStart && !placeCue ? "l4_less_likely" : "no_level";
    if (k === "unknown") {
      // A capitalised word that is neither an English word nor a known place, mid-sentence.
      if (strongCue) return atStart ? "l4_less_likely" : "l3_likely";
      if (atStart && PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12))) return "l4_less_likely";
      // Addressing someone at the start: "Bongani, can I speak to your boss?"
      if (
        atStart &&
        /^,\s+(?:can|could|would|will|please|i|we|you|do|did|are|is|have|thanks|thank|sorry|listen|look|come|let)\b/i.test(text.slice(last.end, last.end + 14))
      )
        return "l4_less_likely";
      if (atStart || placeCue) return "no_level";
      // Mid-sentence with nothing else to go on, a word no list knows is a place, a product or a term as often as a
      // person ("the war in Troia", "a pod in Kubernetes"): reported under the default threshold unless a verb of a person follows.
      return PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12)) ? "l4_less_likely" : "l5_unlikely";
    }
  }
  return "no_level";
}

/**
 * Names listed together share their evidence: in "Kowalczyk and Nowak" or
 * "Ana, Luis and Tomás" a weak member is raised to l4 when another is l4 or better.
 */
export function coordinate(text: string, found: Finding[]): void {
  found.sort((a, b) => a.start - b.start);
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i + 1 < found.length; i++) {
      const a = found[i];
      const b = found[i + 1];
      if (!/^(?:,\s*|\s+(?:and|or|&|y|und|et|e)\s+|,\s*(?:and|or)\s+)$/.test(text.slice(a.end, b.start))) continue;
      const good = (f: Finding) => f.level !== "l5_unlikely";
      if (good(a) && !good(b)) b.level = "l4_less_likely";
      else if (good(b) && !good(a)) a.level = "l4_less_likely";
    }
  }
}
