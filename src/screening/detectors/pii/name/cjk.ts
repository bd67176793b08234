// Scripts without capitals: Han and Hangul names.
import type { Level } from "../../../vocabulary.js";
import { type Finding, stronger } from "../../findings.js";
import { hasCue, NAMED_WORKS, PERSON_VERB_AFTER } from "./cues.js";
import { HAN_SURNAMES, HANGUL_SURNAMES } from "./lexicons.js";

// Han runs, with the iteration mark "々" and the small "ヶ" Japanese names use ("菜々子", "佐々木").
const HAN_RUN = /[\p{Script=Han}々〆ヶ]+(?:[ 　][\p{Script=Han}々〆ヶ]+)?/gu;
const HANGUL_WORD = /[\uac00-\ud7a3]+/g;
// The last character of a Han place, street or building name: city, county, province, district, town,
// village, road, street, lane, bridge, prefecture; centre, flat, suite, building, room, shop, company.
const PLACE_END = /(?:[市县縣省区區镇鎮乡鄉村路街道巷弄里桥橋旁侬町都府県郡州岛島园園号號楼樓室店司厂廠院馆館]|中心|公寓|套房|大厦|大廈)$/;
// Korean places end in their kind too: 서울특별시, 강남구, 양양군, 세종대로, 입동9길.
const HANGUL_PLACE_END = /(?:특별시|광역시|[시도구군읍면동리로길])$/;

/** Any Han ideograph (BMP blocks or a surrogate pair) or Hangul syllable? A char-code scan, no regex. */
function hasCjk(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xd840 && c <= 0xd87f)) return true;
  }
  return false;
}

const CJK_NEAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\uac00-\ud7a3]/u;
// Words that introduce a character or a word rather than a person: "the character 水", "水 means water".
const CJK_AS_WORD_BEFORE =
  /\b(?:character|characters|kanji|hanzi|hanja|hangul|radical|symbol|glyph|word|words|term|phrase|means|meaning|translates?|translated|written|write|spelled|pronounced|say|says|reads?)\s*[:"'“‘「(]?\s*$/i;
const CJK_AS_WORD_AFTER = /^\s*(?:[)"'”’」=:(（]|means|meaning|is (?:the|a) (?:character|word)|stands for|translates)/i;

/**
 * A short Han or Hangul run standing as a word of its own in Latin-script prose: no other
 * CJK or kana within 20 characters, Latin words on both sides (or the text's edge), and
 * nothing that makes it a quoted word or character under discussion.
 */
function cjkAloneInLatin(text: string, start: number, end: number): boolean {
  const left = text.slice(Math.max(0, start - 20), start);
  const right = text.slice(end, end + 20);
  if (CJK_NEAR.test(left) || CJK_NEAR.test(right)) return false;
  if (!/\p{Script=Latin}{2}/u.test(left + right)) return false;
  if (!/(?:^|[\s,(])$/.test(left) || !/^(?:$|['’]s\b|[\s,.!?;:])/.test(right)) return false;
  // "the 水 radical" is a thing; "the 章 novel" is a person's work.
  if (/\bthe\s+$/i.test(left) && !NAMED_WORKS.test(right)) return false;
  return !CJK_AS_WORD_BEFORE.test(left) && !CJK_AS_WORD_AFTER.test(right);
}

export function findCjkNames(text: string): Finding[] {
  const out: Finding[] = [];
  if (!hasCjk(text)) return out;
  for (const m of text.matchAll(HAN_RUN)) {
    const parts = m[0].split(/[ 　]/);
    const whole = parts.join("");
    if (whole.length > 5 || parts[0].length > 4) continue;
    // Places, streets and buildings end in their kind: "安乡县", "邵東路", "宁南市", "龚中心", "公寓".
    if (PLACE_END.test(whole)) continue;
    if (whole.length === 1) {
      // One character ("白", "苏") is a name only when the text says a name comes ...
      if (
        HAN_SURNAMES.has(whole) &&
        (hasCue(text, m.index, m.index + 1).strong || PERSON_VERB_AFTER.test(text.slice(m.index + 1, m.index + 13))) &&
        !/\p{Script=Han}/u.test(text.slice(Math.max(0, m.index - 1), m.index) + text.slice(m.index + 1, m.index + 2))
      ) {
        out.push({ start: m.index, end: m.index + 1, level: "l3_likely", labels: ["han"] });
      } else if (cjkAloneInLatin(text, m.index, m.index + 1)) {
        // ... or when it stands as a word of its own in Latin-script prose ("my kid 芳", "said 凜 to ..."):
        // a one-character given name or surname written in its own script.
        out.push({ start: m.index, end: m.index + 1, level: "l4_less_likely", labels: ["han"] });
      }
      continue;
    }
    // Only a run standing apart from other Han/kana text: inside Chinese or Japanese prose it could be any word.
    const left = text.slice(Math.max(0, m.index - 2), m.index);
    const right = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(left.slice(-1)) ||
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(right.slice(0, 1))
    )
      continue;
    const surname = HAN_SURNAMES.has(whole.slice(0, 2)) || HAN_SURNAMES.has(whole.slice(0, 1)) || HAN_SURNAMES.has(parts[0]);
    const cue = hasCue(text, m.index, m.index + m[0].length).strong || /^(?:先生|女士|小姐|さん|様|氏)/.test(right);
    // Japanese names are written family name, space, given name: two short Han
    // runs apart from other Japanese text are a name even with a rare surname.
    const japaneseShape = parts.length === 2 && parts[0].length <= 3 && parts[1].length <= 3;
    const verb = PERSON_VERB_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 12));
    let level: Level;
    if (surname) level = parts.length === 2 ? "l2_very_likely" : "l3_likely";
    else if (japaneseShape) level = "l3_likely";
    else if ((cue || verb) && whole.length <= 3) level = "l4_less_likely";
    else if (whole.length <= 3 && cjkAloneInLatin(text, m.index, m.index + m[0].length)) level = "l4_less_likely";
    else continue;
    if (cue) level = stronger(level);
    out.push({ start: m.index, end: m.index + m[0].length, level, labels: ["han"] });
  }
  for (const m of text.matchAll(HANGUL_WORD)) {
    const word = m[0];
    if (word.length > 4) continue;
    if (word.length > 1 && HANGUL_PLACE_END.test(word)) continue;
    if (word.length === 1) {
      if (HANGUL_SURNAMES.has(word) && hasCue(text, m.index, m.index + 1).strong) out.push({ start: m.index, end: m.index + 1, level: "l3_likely", labels: ["hangul"] });
      // One syllable standing as a word of its own in Latin-script prose ("early 봉?"): a surname.
      else if (cjkAloneInLatin(text, m.index, m.index + 1)) out.push({ start: m.index, end: m.index + 1, level: "l4_less_likely", labels: ["hangul"] });
      continue;
    }
    // Korean prose is all Hangul: only a word standing among other scripts is taken (Hangul past
    // a Latin word, as in "원민성 from 주식회사 아라", is another phrase).
    const left = text.slice(Math.max(0, m.index - 12), m.index).replace(/^.*[A-Za-z]/s, "");
    const right = text.slice(m.index + word.length, m.index + word.length + 12).replace(/[A-Za-z].*$/s, "");
    if (/[\uac00-\ud7a3]/.test(left) || /[\uac00-\ud7a3]/.test(right)) continue;
    const surname = HANGUL_SURNAMES.has(word.slice(0, 2)) || HANGUL_SURNAMES.has(word.slice(0, 1));
    const cue = hasCue(text, m.index, m.index + word.length).strong;
    // Most Korean names are three syllables: one standing alone in other-script text is likely one.
    let level: Level;
    const verb = PERSON_VERB_AFTER.test(text.slice(m.index + word.length, m.index + word.length + 12));
    if (surname) level = word.length === 3 ? "l3_likely" : "l4_less_likely";
    else if (word.length === 3 || cue || verb || cjkAloneInLatin(text, m.index, m.index + word.length)) level = "l4_less_likely";
    else continue;
    if (cue) level = stronger(level);
    out.push({ start: m.index, end: m.index + word.length, level, labels: ["hangul"] });
  }
  return out;
}
