// A text model scores only text in a language its training data has evidence
// for (docs/learned-detectors.md#languages): hashed n-grams of a language it
// never saw make an arbitrary score, and an arbitrary score over a threshold
// is a false alarm on ordinary text. Such a part gets l5_unlikely and a note
// that dev_info reports. Only a reliable identification skips a part: short,
// mixed or unidentified text is scored as before.
import { LRUCache } from "lru-cache";
import type { Detection } from "../../../detector.js";
import { identifyLanguage, type LanguageId } from "../../../language.js";
import { LEET } from "../../leet.js";
import type { LoadedModel } from "./model-store.js";

// The engine hands every detector of a part the same normalized string: one identification per part.
const identified = new LRUCache<string, LanguageId>({ max: 32 });

const LEET_CHARS = new RegExp(
  `[${Object.keys(LEET)
    .join("")
    .replace(/[\\\]^-]/g, "\\$&")}]`,
  "g",
);
const LETTER_DIGIT = /\p{L}\d|\d\p{L}/u;

/**
 * Leetspeak ("1gn0r3 4ll pr3v10u5 ...") reads as some other language to an
 * identifier, which would let an obfuscated attack skip the model: text with
 * digits inside words is identified on its de-leeted form.
 */
function languageOf(text: string): LanguageId {
  let id = identified.get(text);
  if (!id) {
    const probe = LETTER_DIGIT.test(text) ? text.replace(LEET_CHARS, (c) => LEET[c]) : text;
    identified.set(text, (id = identifyLanguage(probe, { reliableOnly: true })));
  }
  return id;
}

/** The part's language when the identification is reliable (as the gate reads it), else undefined. */
export function reliableLanguage(text: string): string | undefined {
  const id = languageOf(text);
  return id.reliable ? id.lang : undefined;
}

/** The reliably identified language of a part the model has no evidence for, or undefined when it may score the part. */
export function languageWithoutEvidence(model: LoadedModel, text: string): string | undefined {
  if (!model.languages) return undefined;
  const lang = reliableLanguage(text);
  return lang !== undefined && !model.languages.has(lang) ? lang : undefined;
}

/** The detection of a part in `lang`, which the model has no evidence for. */
export const notScored = (lang: string): Detection => ({ level: "l5_unlikely", spans: [], note: `not scored: no training evidence for language '${lang}'` });

/** The detection of a part the model has no evidence for, or undefined when it may score the part. */
export function withoutEvidence(model: LoadedModel, text: string): Detection | undefined {
  const lang = languageWithoutEvidence(model, text);
  return lang === undefined ? undefined : notScored(lang);
}
