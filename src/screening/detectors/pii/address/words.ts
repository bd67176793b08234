// The address words pii/address reads outside the US (lexicons/street-types.txt),
// loaded once, and the tests a token is put to: is it a street type written
// before or after the name, a name with a street type glued to it, a unit
// word, a house-number marker?
import { readFileSync } from "node:fs";
import { projectFile } from "../../../../paths.js";
import { LEXICONS } from "../../lexicons/dir.js";

interface WordList {
  /** Lower-case words that match with or without a trailing period. */
  any: Set<string>;
  /** Abbreviations that need their period ("u." but not "u"). */
  dotted: Set<string>;
  /** Words that are also English words: they count only in lower case ("gate", "park"). */
  lowerOnly: Set<string>;
}

const lists: Record<string, WordList> = {};
{
  let current: WordList | undefined;
  for (const raw of readFileSync(projectFile(LEXICONS, "street-types.txt"), "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (line.startsWith("@")) {
      current = lists[line.slice(1)] = { any: new Set(), dotted: new Set(), lowerOnly: new Set() };
      continue;
    }
    if (!current) continue;
    if (line.endsWith("!")) {
      current.any.add(line.slice(0, -1));
      current.lowerOnly.add(line.slice(0, -1));
    } else if (line.endsWith(".") && line.length > 1) current.dotted.add(line.slice(0, -1));
    else current.any.add(line);
  }
}
const list = (name: string): WordList => lists[name] ?? { any: new Set(), dotted: new Set(), lowerOnly: new Set() };
const BEFORE = list("before");
const AFTER = list("after");
const GLUED = list("glued");
const WEAK = list("weak");
const UNIT = list("unit");

/** Does a raw token ("Str.", "ul.", "Gate", "utca") belong to the list? */
function inList(l: WordList, raw: string): boolean {
  // A period after a word that is not an abbreviation ends a sentence: "... the car park. Lorry will be 10".
  if (raw.endsWith(".")) return l.dotted.has(raw.slice(0, -1).toLowerCase());
  const key = raw.toLowerCase();
  return l.any.has(key) && !(l.lowerOnly.has(key) && raw !== key);
}

export const isBeforeType = (raw: string) => inList(BEFORE, raw);
export const isAfterType = (raw: string) => inList(AFTER, raw);
export const isWeakStart = (raw: string) => inList(WEAK, raw);
export const isUnitWord = (raw: string) => inList(UNIT, raw);

// Glued endings, longest first, with the shortest stem each needs: "Hauptstraße" (stem
// "Haupt"), "Timotie"; never "Spring" (ring), "Cutie" (tie), "Notepad".
// Indexed by their last character, so a word is compared with a handful of endings only.
const GLUED_ENDINGS = new Map<string, string[]>();
for (const ending of [...GLUED.any, ...[...GLUED.dotted].map((d) => `${d}.`)].sort((a, b) => b.length - a.length)) {
  const last = ending[ending.length - 1];
  GLUED_ENDINGS.set(last, [...(GLUED_ENDINGS.get(last) ?? []), ending]);
}

/** A capitalised name with a street type glued to its end ("Hauptstraße", "Kirchstr.", "Kalverstraat", "Cedervej"). */
export function hasGluedType(raw: string): boolean {
  const word = raw.toLowerCase();
  for (const ending of GLUED_ENDINGS.get(word[word.length - 1]) ?? []) {
    if (!word.endsWith(ending)) continue;
    const stem = word.length - ending.length;
    // "Thomas-Dehler-Str.": a hyphen before the ending is a stem of its own.
    if (word[stem - 1] === "-") return stem >= 2;
    if (stem >= (ending.replace(".", "").length <= 3 ? 4 : 3)) return true;
  }
  return false;
}
