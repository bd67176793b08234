// Chinese, Japanese and Korean addresses, written from the largest unit down
// without spaces or with few:
//   China, Taiwan  北京市朝阳区建国路88号, 台北市信義區信義路五段7號 5樓
//   Japan          〒100-0001 東京都千代田区千代田1丁目1番1号, 千代田区千代田1-1
//   Korea          서울특별시 종로구 세종대로 209, 부산 해운대구 센텀중앙로 79 아파트 101동
// An anchor (a house number with 号/號, 丁目/番地, a 〒 postcode, or a Korean
// road name ending in 로/길 next to a number) is found first; the address is
// then read backward over the administrative units before it (省 市 区 县 都
// 道 府 県 町 村 / 시 도 구 군 읍 면 동) and forward over building, floor and
// room numbers. Levels:
//   a 〒 postcode, or two administrative units and a house number    -> l1
//   one administrative unit and a house number                        -> l2
//   a street and a house number alone ("建国路88号", "세종대로 209")     -> l3
// Numbers that are ordinals, dates or line numbers ("第3号", "5月3号",
// "1号线") are not house numbers. Every read is bounded, so the scan is linear.
import type { Finding } from "../../findings.js";

const HAS_CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af〒]/;
// Han and kana (a Chinese or Japanese address is written in them, with digits).
const HAN = /[\u3040-\u30ff\u3400-\u9fff々]/;
// Administrative units: province, city, district, county, town, village; prefecture (都道府県).
const ADMIN = /[省市区區县縣镇鎮乡鄉都道府県町村郡]/g;
// House numbers: "88号", "7號", "1丁目", "8番地", "4番"; a 〒 postcode.
// Japanese block numbers glued to the town name: "神南1-2-3", "千代田1-1" (chome, block, house).
const ANCHOR =
  /〒\s?\d{3}-?\d{4}|\d{1,5}\s?[号號](?![线線码碼机機公高案舰艦船卫衛星球])|\d{1,2}丁目|\d{1,4}番地?|(?<=[\u3400-\u9fff々ヶ])\d{1,2}[-－]\d{1,4}(?:[-－]\d{1,4})?(?![\d\-－])/g;
const BLOCK_NUMBER = /^\d/;
// Words that make a hyphenated number a phone, fax or other number rather than a block number.
const NOT_BLOCK = /電話|携帯|番号|TEL|FAX|Tel|Fax|郵便/;
const ADMIN_ANY = /[省市区區县縣镇鎮乡鄉都道府県町村郡]/;
// Words leading up to an address; the last one found ends the lead-in (no backtracking: a plain alternation).
const LEAD_WORDS = /寄到|送到|发到|發到|寄往|送往|住在|位于|位於|地址|住所|[はをにへで在到是]/g;
const LEAD = {
  exec(head: string): { index: number; 0: string } | null {
    let last: { index: number; 0: string } | null = null;
    for (const m of head.matchAll(LEAD_WORDS)) last = { index: m.index, 0: m[0] };
    return last;
  },
};
// Without an administrative unit, a street word must stand right before the number: "建国路88号", not "阿波罗11号" (Apollo 11).
const STREET_END = /(?:[路街道巷弄里段桥橋村庄莊坊]|胡同|大道)\s?$/;
// What may follow a house number: "1番1号", "-2-3", " 5樓", "套房 226", "Apt. 5", "101号室", "3F".
const AFTER =
  /^(?:[\s\u3000]?(?:\d{1,4}(?:番地?|号室?|號|丁目|[楼樓层層階室栋棟]|F)|[-－]\d{1,4}|(?:套房|公寓|单元|單元|Apt\.?|Suite|Room|Rm\.?)\s?\d{1,5}[号號室]?|[\u3040-\u30ff\u3400-\u9fff]{1,12}\d{1,4}[号號室]))*/u;

// At most this many anchors are read out per text: a text made of "1号1号..." or "市1号市1号..." is not a
// list of addresses, and the cost stays bounded.
const MAX_ANCHORS = 200;

function cjkAnchors(text: string, out: Finding[]): void {
  let covered = 0;
  let tried = 0;
  for (const m of text.matchAll(ANCHOR)) {
    if (m.index < covered) continue;
    const postcode = m[0].startsWith("〒");
    const prev = text[m.index - 1] ?? "";
    // "第3号" (number 3), "5月3号" (a date): not a house number.
    if (!postcode && /[第月期卷\d]/.test(prev)) continue;
    // Cheap tests first: a street word right before the number, or an administrative unit not far before it.
    if (
      !postcode &&
      !/丁目|番/.test(m[0]) &&
      !STREET_END.test(text.slice(Math.max(0, m.index - 3), m.index)) &&
      !ADMIN_ANY.test(text.slice(Math.max(0, m.index - 30), m.index))
    )
      continue;
    if (++tried > MAX_ANCHORS) break;
    // Backward over Han, kana, digits, spaces and hyphens: the street and the units above it.
    let start = m.index;
    if (!postcode) {
      let k = m.index;
      const limit = Math.max(0, m.index - 30);
      while (k > limit && (HAN.test(text[k - 1]) || /[\d\s\u3000\-－]/.test(text[k - 1]))) {
        if (/\s/.test(text[k - 1]) && !HAN.test(text[k - 2] ?? "")) break;
        k--;
      }
      while (k < m.index && /[\s\u3000\d\-－]/.test(text[k])) k++;
      start = k;
    }
    let head = text.slice(start, m.index);
    // A number alone ("3号") or after one character is not an address; without an administrative
    // unit, a street word must stand right before the number.
    if (!postcode && head.replace(/[\s\u3000]/g, "").length < 2) continue;
    if (!postcode && !/丁目|番/.test(m[0]) && !STREET_END.test(head) && !ADMIN_ANY.test(head)) continue;
    // Cut the words leading up to the address: "请寄到北京市..." (please send to), "住所は東京都..." (the address is).
    const lead = LEAD.exec(head);
    if (lead) {
      start += lead.index + lead[0].length;
      head = text.slice(start, m.index);
    }
    let end = m.index + m[0].length;
    // After a postcode: the address that follows it.
    if (postcode) {
      const rest = /^[\s\u3000]*[\u3040-\u30ff\u3400-\u9fff々\d\-－]{2,40}/.exec(text.slice(end, end + 48));
      // Without the hiragana that ends the sentence: "...千代田1-1です。"
      if (rest) end += rest[0].replace(/[\u3040-\u309f]+$/, "").length;
    }
    const after = AFTER.exec(text.slice(end, end + 40));
    if (after) end += after[0].length;
    const admin = new Set(text.slice(start, end).match(ADMIN) ?? []).size;
    // A hyphenated block number counts after a prefecture or city and a ward or town: "東京都渋谷区神南1-2-3".
    if (BLOCK_NUMBER.test(m[0]) && /[-－]/.test(m[0]) && !postcode && (admin < 2 || NOT_BLOCK.test(head))) continue;
    if (admin === 0 && !postcode && !/丁目|番/.test(m[0]) && !STREET_END.test(head)) continue;
    if (head.length === 0 && !postcode) continue;
    const level = postcode || admin >= 2 ? "l1_confident" : admin === 1 ? "l2_very_likely" : "l3_likely";
    out.push({ start, end, level, labels: ["street"] });
    covered = end;
  }
}

const HANGUL_WORD = /[\uac00-\ud7af\d]/;
// Road names: "세종대로", "입동9길", "테헤란로", "중앙로123번길"; never the particle "으로" ("to, with").
const ROAD = /[\uac00-\ud7af\d]{1,14}(?:로|길)(?![\uac00-\ud7af])/g;
// Administrative units before a road: 서울특별시, 부산광역시, 경기도, 강남구, 양양군, 읍, 면, 동.
const KR_ADMIN = /(?:특별시|광역시|특별자치시|특별자치도|[시도구군읍면동])$/;
const KR_UNITS = /^(?:\s?(?:아파트|빌라|오피스텔)?\s?\d{1,4}(?:동|호|층)|\s?(?:아파트|빌라|오피스텔)\s?\d{1,4}(?:동|호|층)?)*/;

function koreanRoads(text: string, out: Finding[]): void {
  for (const m of text.matchAll(ROAD)) {
    const word = m[0];
    if (word.endsWith("으로") || /^\d+$/.test(word.slice(0, -1))) continue;
    if (HANGUL_WORD.test(text[m.index - 1] ?? "")) continue;
    let start = m.index;
    let end = m.index + word.length;
    // The building number after the road ("세종대로 209") or before it ("7297 입동9길").
    const after = /^\s?\d{1,5}(?:-\d{1,4})?(?![\d\uac00-\ud7af])/.exec(text.slice(end, end + 12));
    const before = /(?<!\d)(\d{1,5}(?:-\d{1,4})?)\s?$/.exec(text.slice(Math.max(0, start - 12), start));
    if (after) end += after[0].length;
    else if (before) start -= before[0].length;
    else continue;
    // Backward over administrative units: "서울특별시 종로구 ", "광주광역시양양구".
    let admin = 0;
    for (let i = 0; i < 4; i++) {
      const w = /([\uac00-\ud7af]{1,10})\s?$/.exec(text.slice(Math.max(0, start - 12), start));
      if (!w || !KR_ADMIN.test(w[1])) break;
      start -= w[0].length;
      admin++;
    }
    // A road and a number alone must end there: "세종대로 209." but not "학교로 5분" ("to school, 5 minutes").
    const units = KR_UNITS.exec(text.slice(end, end + 24));
    if (units) end += units[0].length;
    if (admin === 0 && !/^(?:$|[\s,.;:!?)\]」』])/.test(text.slice(end, end + 1))) continue;
    if (out.some((f) => f.start < end && start < f.end)) continue;
    out.push({ start, end, level: admin >= 2 ? "l1_confident" : admin === 1 ? "l2_very_likely" : "l3_likely", labels: ["street"] });
  }
}

/** Chinese, Japanese and Korean addresses in the text (nothing when it has no CJK or Hangul characters). */
export function findCjkAddresses(text: string): Finding[] {
  if (!HAS_CJK.test(text)) return [];
  const out: Finding[] = [];
  cjkAnchors(text, out);
  if (/[\uac00-\ud7af]/.test(text)) koreanRoads(text, out);
  return out;
}
