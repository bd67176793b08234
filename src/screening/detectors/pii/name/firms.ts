// Firm names built from people's names ("Kuhic, Bahringer and Beer",
// "Martins e Reis", "Poirier EI"): runs and findings that are companies, not people.
import type { Finding } from "../../findings.js";
import { PEOPLE_LIST_CUE } from "./cues.js";
import { lexiconKind } from "./kinds.js";
import { FIRM_CONJUNCTIONS, ORG_WORDS } from "./lexicons.js";
import type { Run } from "./runs.js";
import type { Token } from "./tokens.js";

// Company forms after a name: "Poirier EI", "Viale-Pagano SPA", "Sottile-Pittalis e figli", "Esquivel Fonseca S.A.".
export const FIRM_SUFFIX =
  /^,? ?(?:s\.r\.l\.|s\.p\.a\.|S\.A\.|S\.L\.|S\.A\.S\.|S\.C\.|S\.?p\.?A\b|SPA\b|SRL\b|EURL\b|SARL\b|SAS\b|SA\b|SE\b|EI\b|SEM\b|SNC\b|GIE\b|SCA\b|SCS\b|Sp\. (?:k|j|z o\.o)\.|GmbH\b|AG\b|KG\b|OHG\b|UG\b|e\.V\.|Sp\. z o\.o\.|s\.r\.o\.|a\.s\.|v\.o\.s\.|k\.s\.|spol\.|Kft\.?|Zrt\.?|Nyrt\.?|Kkt\.?|Kv\.|Bt\.|HB\b|KB\b|Gruppen\b|TNHH\b|un partneri\b|holdings\b|AB\b|ASA\b|AS\b|A\/S\b|ApS\b|Oy\b|Oyj\b|BV\b|B\.V\.|NV\b|N\.V\.|V\.O\.F\.|VOF\b|LLC\b|L\.L\.C\.|LLP\b|LP\b|Inc\b|Ltd\b|Limited\b|Corp\b|Co\.|PLC\b|plc\b|Pty\b|Pvt\b|Tbk\b|CC\b|EIRELI\b|Ltda\b|ME\b|S\/A\b|e (?:[Ff]igli|[Ff]ilhos)\b|y (?:[Aa]sociados|[Hh]ijos)\b|e [Aa]ssociados\b|und Söhne\b|et [Ff]ils\b|and Sons\b|& (?:Sons|Co)\b|Group\b|Gruppe\b|Groupe\b|Grupo\b|Gruppo\b|Hermanos\b|Asociados\b|Associados\b|Associates\b|Partners\b|Holdings?\b|Brothers\b|Bros\b)/;
const FIRM_PREFIX = /(?:\bPT|\bCV|\bAO|\bOOO|ООО|ОАО|ЗАО|ПАТ|ТОВ|ПАО|АО)\s+$/;
// Company words before a name in other languages: "Công ty Ngô", "Cty TNHH Lâm", "Cửa hàng Mai" (Vietnamese),
// "SIA Jumiķe", "IU Bajārs", "AS Karlsone" (Latvian), "Firma Rožkalns", "Yayasan Pradana", "ГУП София".
const COMPANY_BEFORE =
  /(?:^|[\s>(])(?:[Cc]ông ty|[Cc]ty(?: TNHH)?|TNHH|[Cc]ửa hàng|[Cc]hi nhánh|[Tt]rung tâm|[Tt]ập đoàn|[Dd]oanh nghiệp|[Xx]í nghiệp|[Nn]gân hàng|[Nn]hà hàng|[Kk]hách sạn|SIA|AS|IU|SA|Biedrība|Firma|Yayasan|Koperasi|UD|PD|ГУП|МУП|ТСЖ|НПО|ИП|ОДО|ЧП)\.?\s+$/u;
// Company words that open a run of capitalised words: "Firma Celms", "Cty Lý", "ФГУП Мясников", "ОП Алла".
const COMPANY_FIRST = /^(?:Cty|Firma|Biedrība|Yayasan|Koperasi|SIA|IU|UD|PD|PT|CV|ГУП|МУП|ФГУП|ТСЖ|НПО|ИП|ОДО|ЧП|ОП|ООО|ОАО|ЗАО|ПАО|АО|ТОВ|ПАТ)$/u;
// The first word of such a company word, standing as a run of its own: "Công" (ty), "Cửa" (hàng), "Trung" (tâm).
export const COMPANY_WORD_AFTER = /^ (?:ty|hàng|tâm|nhánh|đoàn|nghiệp)\b/u;
// Conjunctions of other languages joining capitalised words inside English text are firm names ("Martins e Reis").
export const FOREIGN_CONJUNCTIONS = new Set(["e", "y", "und", "et", "en", "och", "og", "i", "és", "ve", "u", "un", "ir", "ja"]);

// "Kuhic, Bahringer and Beer", "Costa, Martins e Reis", "Carrasco Meraz y Zepeda Piña": capitalised
// items (1-4 words, inner particles allowed) joined by commas and a final conjunction.
const FIRM_ITEM = "\\p{Lu}[\\p{L}\\p{M}'’-]*(?: (?:(?:de|van|der|den|da|di|del|la|le|von|do|dos|das) )*\\p{Lu}[\\p{L}\\p{M}'’-]*){0,3}";
// A cheap over-approximation of FIRM_LIST's conjunction (no /u: it is scanned over the whole text).
export const FIRM_HINT = / (?:and|&|e|y|und|et|en|och|og|i|és|ve|u|un|a|ir|ja) (?:(?:de|van|von|da|di|del|la|le) )?[A-Z\u00c0-\u024f\u0400-\u04ff]/g;
export const FIRM_LIST = new RegExp(
  `(?:(?:de|van|von|da|di|del|la|le) )?${FIRM_ITEM}(?:, (?:(?:de|van|von|da|di|del|la|le) )?${FIRM_ITEM})*,? (and|&|e|y|und|et|en|och|og|i|és|ve|u|un|a|ir|ja) (?:(?:de|van|von|da|di|del|la|le) )?${FIRM_ITEM}`,
  "gu",
);

/** True when the run is part of a firm name: "X, Y and Z", "X - Y", "X und Y", "X LLC". */
export function isFirm(text: string, run: Run, tokens: Token[], index: number): boolean {
  if (run.kinds.includes("org")) return true;
  // The company word opens the run itself: "Firma Celms", "Biedrība Grodums", "ФГУП Мясников".
  if (run.tokens.length >= 2 && COMPANY_FIRST.test(run.tokens[0].raw)) return true;
  const last = run.tokens[run.tokens.length - 1];
  // "Szilágyi 2000 Kft.": a number between the name and its company form.
  const numbered = /^ \d{1,4}(?= )/.exec(text.slice(last.end, last.end + 6));
  if (numbered && FIRM_SUFFIX.test(text.slice(last.end + numbered[0].length, last.end + numbered[0].length + 12))) return true;
  if (COMPANY_BEFORE.test(text.slice(Math.max(0, run.tokens[0].start - 16), run.tokens[0].start))) return true;
  const next = tokens[index + run.tokens.length];
  if (next && ORG_WORDS.has(next.key) && text.slice(last.end, next.start).trim() === "") return true;
  if (next && ORG_WORDS.has(next.key) && /^\s*[,&]?\s*$/.test(text.slice(last.end, next.start))) return true;
  // Spaced dash between two name words: "Conroy - Brown".
  if (/^ [-–] \p{L}/u.test(text.slice(last.end, last.end + 4))) return true;
  const before = text.slice(Math.max(0, run.tokens[0].start - 4), run.tokens[0].start);
  if (/ [-–] $/.test(before)) return true;
  // "Kuhic, Bahringer and Beer": surnames (not given names) joined by a comma and a conjunction,
  // unless the list is introduced as people ("our 3 founders: Moedl, Best and Niklaus").
  if (run.tokens.length === 1 && !run.kinds.includes("given") && !inPeopleList(text, run.tokens[0].start)) {
    const after = text.slice(last.end, last.end + 40);
    const m = /^(?:, \p{Lu}[\p{L}'-]+)?,? (\S+) \p{Lu}[\p{L}'-]+/u.exec(after);
    if (m && FIRM_CONJUNCTIONS.has(m[1].toLowerCase()) && /^,/.test(after)) return true;
    const back = text.slice(Math.max(0, run.tokens[0].start - 40), run.tokens[0].start);
    const b = /\p{Lu}[\p{L}'-]+, (?:\p{Lu}[\p{L}'-]+,? )?(\S+) $/u.exec(back);
    if (b && FIRM_CONJUNCTIONS.has(b[1].toLowerCase())) {
      const firstWord = /(\p{Lu}[\p{L}'-]+),/u.exec(back);
      if (firstWord && lexiconKind(firstWord[1].toLowerCase()) !== "given") return true;
    }
    if (/^, \p{Lu}[\p{L}'-]+,? (?:and|und|et|e|y|&) /u.test(after)) return true;
  }
  return false;
}

/** Is `start` inside a list introduced as people ("founders: A, B and C")? */
function inPeopleList(text: string, start: number): boolean {
  const back = text.slice(Math.max(0, start - 100), start);
  const colon = back.lastIndexOf(":");
  return colon >= 0 && !/[.!?]/.test(back.slice(colon)) && PEOPLE_LIST_CUE.test(back.slice(0, colon + 1));
}

/**
 * Firm names built from surnames: "Kuhic, Bahringer and Beer", "Martins e Reis",
 * "Fischer, Heinke und Heinig", "Espinosa Olmos y Laboy Ríos S.A.". Findings
 * joined by ", " and a final conjunction form a group; the group is a firm
 * when the conjunction is not English, when a company form follows it, or
 * when it has three or more members none of which starts with a given name.
 * Lone findings followed by a company form ("Poirier EI") are firms too.
 */
export function dropFirms(text: string, found: Finding[]): void {
  found.sort((a, b) => a.start - b.start);
  const drop = new Set<Finding>();
  let i = 0;
  while (i < found.length) {
    let j = i;
    let conj = "";
    while (j + 1 < found.length) {
      const gap = text.slice(found[j].end, found[j + 1].start);
      const m = /^(?:,\s*|,?\s+(and|&|e|y|und|et|en|och|og|i|és|ve|u|un|a|ir|ja)\s+)$/.exec(gap);
      if (!m) break;
      j++;
      if (m[1]) {
        conj = m[1];
        break;
      }
    }
    const group = found.slice(i, j + 1);
    let after = text.slice(group[group.length - 1].end, group[group.length - 1].end + 40);
    // "Viklund Nyström, Andersson Group": the firm's last name and its company form come after a comma.
    const tail = /^,\s*\p{Lu}[\p{L}\p{M}'’-]+\s+/u.exec(after);
    if (tail && FIRM_SUFFIX.test(after.slice(tail[0].length))) after = after.slice(tail[0].length);
    const before = text.slice(Math.max(0, group[0].start - 6), group[0].start);
    const startsWithGiven = group.some((f) => lexiconKind(text.slice(f.start, f.end).split(/\s/)[0].toLowerCase()) === "given");
    const people = PEOPLE_LIST_CUE.test(text.slice(Math.max(0, group[0].start - 40), group[0].start));
    // "Osei and Asenso is the brainchild of ...": names joined by a conjunction and then a singular verb are one firm.
    const oneBody = conj !== "" && /^\s+(?:is|was|has been) (?:an?|the)\b/.test(after);
    // "Kwame Osei of Ata and Ofori": after a person and "of", a list of names is the firm they work for.
    const ofFirm = conj !== "" && /\p{Lu}[\p{L}\p{M}'’-]+,? of $/u.test(text.slice(Math.max(0, group[0].start - 30), group[0].start));
    const firm =
      !people &&
      (FIRM_SUFFIX.test(after) ||
        FIRM_PREFIX.test(before) ||
        oneBody ||
        ofFirm ||
        (conj !== "" && FOREIGN_CONJUNCTIONS.has(conj)) ||
        (conj !== "" && group.length >= 3 && !startsWithGiven));
    if (firm) for (const f of group) drop.add(f);
    i = j + 1;
  }
  for (let k = found.length - 1; k >= 0; k--) if (drop.has(found[k])) found.splice(k, 1);
}
