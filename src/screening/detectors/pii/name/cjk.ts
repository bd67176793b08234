// Scripts without capitals: Han and Hangul names.
import type { Level } from "../../../vocabulary.js";
import { type Finding, stronger } from "../../findings.js";
import { hasCue, NAMED_WORKS, PERSON_VERB_AFTER } from "./cues.js";
import { isKnownTown } from "../gazetteer.js";
import { HAN_SURNAMES, HANGUL_SURNAMES } from "./lexicons.js";

// Han runs, with the iteration mark "々" and the small "ヶ" Japanese names use ("菜々子", "佐々木").
const HAN_RUN = /[\p{Script=Han}々〆ヶ]+(?:[ 　][\p{Script=Han}々〆ヶ]+)?/gu;
const HANGUL_WORD = /[\uac00-\ud7a3]+/g;
// The last character of a Han place, street or building name: city, county, province, district, town,
// village, road, street, lane, bridge, prefecture; centre, flat, suite, building, room, shop, company.
const PLACE_END = /(?:[市县縣省区區镇鎮乡鄉村路街道巷弄里桥橋旁侬町都府県郡州岛島园園号號楼樓室店司厂廠院馆館]|中心|公寓|套房|大厦|大廈)$/;
// Korean places end in their kind too: 서울특별시, 강남구, 양양군, 세종대로, 입동9길.
const HANGUL_PLACE_END = /(?:특별시|광역시|[시도구군읍면동리로길])$/;
// Teams, departments and firms end in their kind: 开发团队, 营销部, 技术组, 阿里巴巴集团, 人事課, 開発チーム;
// 개발팀, 인사부, 마케팅그룹, 삼성전자 (회사).
const HAN_ORG_END = /(?:团队|團隊|公司|集团|集團|部门|部門|小组|小組|银行|銀行|大学|大學|学院|學院|协会|協會|委员会|委員會|[部组組课課科处處局厅廳])$/;
const ORG_AFTER =
  /^\s*(?:チーム|グループ|株式会社|有限会社|团队|團隊|公司|集团|集團|部门|部門|小组|小組|[部组組课課科处處局]|팀(?!장)|부서|그룹|회사|본부|센터|주식회사)/;
const HANGUL_ORG_END = /(?:팀|부서|본부|그룹|회사|센터|은행|협회|[부과])$/;

/** A Han or Hangul run that names a town ("杭州", "서울") or a team or firm ("开发团队", "개발팀", "山田チーム"). */
function placeOrOrg(text: string, start: number, end: number, whole: string, orgEnd: RegExp): boolean {
  if (orgEnd.test(whole) || ORG_AFTER.test(text.slice(end, end + 6))) return true;
  // A town is a name when a person's cue says so: "everyone calls me 리원".
  return isKnownTown(whole) && !hasCue(text, start, end).strong && !cjkCue(text, start, end);
}

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

// What says a name comes in Chinese, Japanese and Korean: a field or role before it ("名前：", "联系人",
// "担当の", "이름:"), a self-introduction ("私は", "我叫"), an honorific after it ("さん", "様", "先生", "씨").
const CJK_CUE_BEFORE =
  /(?:名前|氏名|姓名|名字|联系人|聯絡人|联络人|收件人|收件者|收货人|收貨人|担当者?|申请人|申請人|宛名|이름|성명|담당자?)\s*(?:[:：はの是은는]|です)?\s*$|(?:我叫|私は|わたしは|僕は|저는)\s*$/;
const HONORIFIC_AFTER = /^\s*(?:先生|女士|小姐|さん|さま|様|氏|くん|君|ちゃん|殿|씨|님|선생님)/;
// Japanese prose glues a name to what follows: "田中太郎です", "山田花子と申します".
const INTRODUCED_AFTER = /^(?:と申します|と申す|といいます|と言います|でございます|です)/;
// A run longer than its surname ending in one of these is a shop, station, castle, company or school: "中村屋", "松本城".
const NOT_NAME_TAIL = /[屋駅城寺社店家堂館線製産校院園]$/;
const HAN_HONORIFIC_TAIL = /(?:先生|社長|部長|課長|様|氏|殿|君)$/;

/** Letters of a script other than Han, kana and Hangul within 20 characters: the run stands in other-script text. */
function otherScriptNear(text: string, start: number, end: number): boolean {
  const around = text.slice(Math.max(0, start - 20), start) + " " + text.slice(end, end + 20);
  return /(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])\p{L}/u.test(around);
}

/** The run is a line of its own in a text of several lines: a name heading an address block or a signature. */
function lineInBlock(text: string, start: number, end: number): boolean {
  const head = text.slice(Math.max(0, start - 12), start);
  const tail = text.slice(end, end + 12);
  const ownLine = /(?:^|\n)[ \t>?*•-]*$/.test(head) && /^[ \t]*\n/.test(tail);
  return ownLine && (start > 12 || head.includes("\n") || /\n/.test(text.slice(end)));
}

const cjkCue = (text: string, start: number, end: number) =>
  CJK_CUE_BEFORE.test(text.slice(Math.max(0, start - 8), start)) || HONORIFIC_AFTER.test(text.slice(end, end + 6));

/**
 * A Japanese name inside Japanese prose, where nothing separates it from the words around:
 * a Han run starting with a known surname of two or more characters, with an honorific or a
 * self-introduction after it, or a name field before it ("担当の山田花子と申します", "鈴木一郎さん",
 * "私の名前は田中太郎です"). The honorific is not part of the span.
 */
function japaneseNameInProse(text: string, start: number, run: string): Finding | null {
  const honorific = HAN_HONORIFIC_TAIL.exec(run);
  const name = honorific ? run.slice(0, -honorific[0].length) : run;
  if (name.length < 2 || name.length > 5) return null;
  const surname = [4, 3, 2].find((n) => n <= name.length && HAN_SURNAMES.has(name.slice(0, n)));
  if (surname === undefined) return null;
  if (name.length > surname && NOT_NAME_TAIL.test(name)) return null;
  const end = start + name.length;
  const after = text.slice(end, end + 8);
  const before = text.slice(Math.max(0, start - 8), start);
  let level: Level | null = null;
  if (honorific || HONORIFIC_AFTER.test(after) || /^(?:と申|といいます|と言います|でございます)/.test(after) || CJK_CUE_BEFORE.test(before)) level = "l2_very_likely";
  else if (INTRODUCED_AFTER.test(after) && /(?:^|[はがの、。\s])$/.test(before)) level = "l3_likely";
  return level ? { start, end, level, labels: ["han"] } : null;
}

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
    // Places, streets and buildings end in their kind: "安乡县", "邵東路", "宁南市", "龚中心", "公寓".
    if (PLACE_END.test(whole) || placeOrOrg(text, m.index, m.index + m[0].length, whole, HAN_ORG_END)) continue;
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
    // Only a run standing apart from other Han/kana text: inside Chinese or Japanese prose it could be any word,
    // unless it is a Japanese name with an honorific or an introduction.
    const left = text.slice(Math.max(0, m.index - 2), m.index);
    const right = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(left.slice(-1)) ||
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(right.slice(0, 1))
    ) {
      const jp = parts.length === 1 ? japaneseNameInProse(text, m.index, whole) : null;
      if (jp) out.push(jp);
      continue;
    }
    // Standing apart, a name has at most five characters ("山本 健太郎"), its first part at most four. Inside prose the
    // length is japaneseNameInProse's to judge: a five-character name glued to its honorific ("山本健太郎さん", "山本健太郎様").
    if (whole.length > 5 || parts[0].length > 4) continue;
    // "谢谢", "哈哈": in Chinese or Japanese text one character repeated is a word (in English text, "said 婷婷" is a name).
    if (/^(.)\1+$/u.test(whole) && !otherScriptNear(text, m.index, m.index + m[0].length)) continue;
    // "携帯: 090-...", "电话：138...": a field label before a number, not a speaker.
    if (/^\s*[:：]\s*[\d+(]/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 4))) continue;
    const surname = HAN_SURNAMES.has(whole.slice(0, 2)) || HAN_SURNAMES.has(whole.slice(0, 1)) || HAN_SURNAMES.has(parts[0]);
    const cue = hasCue(text, m.index, m.index + m[0].length).strong || cjkCue(text, m.index, m.index + m[0].length);
    // Japanese names are written family name, space, given name: two short Han
    // runs apart from other Japanese text are a name even with a rare surname.
    const japaneseShape = parts.length === 2 && parts[0].length <= 3 && parts[1].length <= 3;
    const verb = PERSON_VERB_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 12));
    // A run alone in Chinese or Japanese text, set off only by punctuation ("谢谢！", "好的。"), is a word or a
    // sentence of its own: a name only with a cue, or written family name, space, given name.
    if (!cue && !verb && !japaneseShape && !otherScriptNear(text, m.index, m.index + m[0].length) && !lineInBlock(text, m.index, m.index + m[0].length)) continue;
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
    if (word.length > 1 && (HANGUL_PLACE_END.test(word) || placeOrOrg(text, m.index, m.index + word.length, word, HANGUL_ORG_END))) continue;
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
    if (/[\uac00-\ud7a3]/.test(left) || /[\uac00-\ud7a3]/.test(right)) {
      // Inside Korean prose only a name with an honorific is told apart: "김민수 씨에게", "박지영 님".
      if (
        word.length >= 2 &&
        word.length <= 4 &&
        HANGUL_SURNAMES.has(word.slice(0, 1)) &&
        /^ ?(?:씨|님|선생님)/.test(text.slice(m.index + word.length, m.index + word.length + 5))
      )
        out.push({ start: m.index, end: m.index + word.length, level: "l2_very_likely", labels: ["hangul"] });
      continue;
    }
    const surname = HANGUL_SURNAMES.has(word.slice(0, 2)) || HANGUL_SURNAMES.has(word.slice(0, 1));
    const cue = hasCue(text, m.index, m.index + word.length).strong || cjkCue(text, m.index, m.index + word.length);
    // Most Korean names are three syllables: one standing alone in other-script text is likely one.
    let level: Level;
    const verb = PERSON_VERB_AFTER.test(text.slice(m.index + word.length, m.index + word.length + 12));
    // A word alone in Korean text ("고마워요!", "네.") is a word or a sentence of its own: a name only with a cue.
    if (!cue && !verb && !otherScriptNear(text, m.index, m.index + word.length)) continue;
    if (surname) level = word.length === 3 ? "l3_likely" : "l4_less_likely";
    else if (word.length === 3 || cue || verb || cjkAloneInLatin(text, m.index, m.index + word.length)) level = "l4_less_likely";
    else continue;
    if (cue) level = stronger(level);
    out.push({ start: m.index, end: m.index + word.length, level, labels: ["hangul"] });
  }
  return out;
}
