// pii/name: people's names in running text, any culture: "María José
// García-López", "Nguyễn Văn An", "John F. Kennedy", "Aisha bin Rashid",
// "Siobhan O'Brien", "Анна Блинова", "山田 太郎".
//
// No model: capitalised runs of words are scored with a lexicon of given
// names and surnames (lexicons/name-lexicon.txt, built from MIT/Apache/ISC
// npm data packages and a hand-written list; see training/lexicons/build-name-lexicon.ts),
// titles (Mr, Dr, Mme, Herr ...) and context cues ("my name is", "Dear",
// "signed", "said"), while stop lists remove organisations ("Acme Corp",
// "Kuhic, Bahringer and Beer"), places ("New York", "Lake Leila",
// "Springfield") and calendar words.
//
// Levels, per run of capitalised words (particles such as "van", "de",
// "bin", "al" and initials "F." may sit inside a run):
//   title before the run, or a strong cue and a lexicon name       -> l1
//   two or more words, one a given name                             -> l2
//   a strong cue and any capitalised word(s)                        -> l2
//   one given name                                                  -> l3
//   surnames only (one mid-sentence, or several), a given name that
//   is also a common word ("Will", "Rose") mid-sentence            -> l4
// Han and Hangul names are found when a short run starts with a common
// surname and stands apart from other text in that script (inside Chinese
// or Korean prose words cannot be told from names without segmentation):
// l3, l2 with a second part ("山田 太郎") or a cue.
import type { Detection } from "../../../detector.js";
import { type Finding, overlapsAny, toDetection } from "../../findings.js";
import { piiDetector } from "../family.js";
import { blockedRanges } from "./blocked.js";
import { findCjkNames } from "./cjk.js";
import { dropFirms, isFirm } from "./firms.js";
import { KNOWN_FIRMS } from "./lexicons.js";
import { findRuns, isPlaceRun, isStreetName, type Run, sentenceStart } from "./runs.js";
import { coordinate, scoreRun } from "./score.js";
import { tokenize } from "./tokens.js";

function findNames(text: string): Finding[] {
  const tokens = tokenize(text);
  const out: Finding[] = [];
  const blocked = blockedRanges(text);
  for (const { run, index } of findRuns(text, tokens)) {
    let { tokens: rt, kinds } = run;
    let at = index;
    // A capitalised sentence opener that is not a name ("Please", "Hello", "Will")
    // is prose; the rest of the run may still be a name.
    while (rt.length > 1 && sentenceStart(text, rt[0].start) && (kinds[0] === "givenCommon" || kinds[0] === "surnameCommon")) {
      rt = rt.slice(1);
      kinds = kinds.slice(1);
      at++;
    }
    while (rt.length > 0 && (kinds[0] === "particle" || (kinds[0] === "initial" && rt.length === 1))) {
      rt = rt.slice(1);
      kinds = kinds.slice(1);
      at++;
    }
    // Names end in a name, not an initial: "Franco S." is "Franco S.A.".
    while (rt.length > 1 && kinds[kinds.length - 1] === "initial") {
      rt = rt.slice(0, -1);
      kinds = kinds.slice(0, -1);
    }
    if (rt.length === 0) continue;
    if (overlapsAny(rt[0].start, rt[rt.length - 1].end, blocked)) continue;
    const trimmed: Run = { tokens: rt, kinds };
    if (isPlaceRun(rt, kinds, text)) continue;
    if (KNOWN_FIRMS.has(text.slice(rt[0].start, rt[rt.length - 1].end).toLowerCase())) continue;
    if (isStreetName(text, trimmed, tokens, at)) continue;
    if (isFirm(text, trimmed, tokens, at)) continue;
    const level = scoreRun(text, trimmed, tokens, at);
    if (level === "no_level") continue;
    out.push({ start: rt[0].start, end: rt[rt.length - 1].end, level });
  }
  dropFirms(text, out);
  coordinate(text, out);
  out.push(...findCjkNames(text));
  return out;
}

export function detectName(text: string): Detection {
  return toDetection(findNames(text));
}

export const name = piiDetector("pii/name", detectName);
