// The built-in national-ID guardrails (src/screening/detectors/pii/national-ids/):
// valid identifiers of the fifteen kinds, generated here with check digits
// computed by this file's own code (not the validators under test), written
// the ways people write them, in sentences of their language with and without
// words that name them. Negatives: the same sentences with one check digit
// changed, valid numbers in order and part-number sentences, and the clean
// texts of the PII section. The sentence frames were written for this script.
import { detectNationalIds } from "../../src/screening/detectors/pii/national-ids/index.js";
import { ID_KINDS } from "../../src/screening/detectors/pii/national-ids/kinds.js";
import type { Level } from "../../src/screening/vocabulary.js";
import { pick, rng, shuffle, type Rng } from "../prng.js";
import type { EvalTexts } from "./corpus.js";
import type { Report } from "./report.js";
import { atOrAbove, pct } from "./scoring.js";

const digits = (r: Rng, n: number, first = "0123456789") => pick(r, [...first]) + Array.from({ length: n - 1 }, () => Math.floor(r() * 10)).join("");
const letters = (r: Rng, n: number, from = "ABCDEFGHIJKLMNOPQRSTUVWXYZ") => Array.from({ length: n }, () => pick(r, [...from])).join("");
const sumWeighted = (s: string, weights: number[]) => [...s].reduce((a, c, i) => a + Number(c) * weights[i], 0);
const pad = (n: number, w: number) => String(n).padStart(w, "0");

/** Verhoeff tables (Aadhaar). */
const VD = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VP = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];
function verhoeff(s: string): string {
  let c = 0;
  [...s].reverse().forEach((ch, i) => (c = VD[c][VP[(i + 1) % 8][Number(ch)]]));
  return String(VINV[c]);
}

const mod11Digit = (s: string, weights: number[]) => {
  const r = sumWeighted(s, weights) % 11;
  return String(r < 2 ? 0 : 11 - r);
};
const luhnDigit = (s: string) => {
  const sum = [...s].reverse().reduce((a, ch, i) => {
    const d = Number(ch) * (i % 2 === 0 ? 2 : 1);
    return a + (d > 9 ? d - 9 : d);
  }, 0);
  return String((10 - (sum % 10)) % 10);
};
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const cfValue = (c: string) => (c >= "0" && c <= "9" ? Number(c) : c.charCodeAt(0) - 65);
const CURP_ALPHABET = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ";
const CURP_STATES = ["AS", "BC", "CH", "DF", "GT", "JC", "MC", "MN", "NL", "OC", "PL", "QT", "SP", "VZ", "YN"];
const CN_REGIONS = ["110101", "310104", "440305", "510107", "320102", "420111", "610113", "360426"];

/** A date between 1950 and 2005, as year, month, day. */
const birth = (r: Rng) => ({ y: 1950 + Math.floor(r() * 56), m: 1 + Math.floor(r() * 12), d: 1 + Math.floor(r() * 28) });

/** Generators by label: a valid identifier as it is usually written (one of its layouts). */
const GENERATE: Record<string, (r: Rng) => string> = {
  gb_nino: (r) => {
    // Prefixes HMRC never issues: BG, GB, KN, NK, NT, TN, ZZ.
    let body = "GB";
    while (["BG", "GB", "KN", "NK", "NT", "TN", "ZZ"].includes(body)) body = letters(r, 1, "ABCEGHJKLMNPRSTWXYZ") + letters(r, 1, "ABCEGHJKLMNPRSTWXYZ");
    const d = digits(r, 6);
    return pick(r, [`${body}${d}${letters(r, 1, "ABCD")}`, `${body} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)} ${letters(r, 1, "ABCD")}`]);
  },
  de_tax_id: (r) => {
    // Ten digits, one of them twice; then ISO 7064 MOD 11,10.
    let body = "0";
    while (body[0] === "0") {
      const pool = shuffle(r, [..."0123456789"]);
      body = shuffle(r, [...pool.slice(0, 9), pool[Math.floor(r() * 9)]]).join("");
    }
    let p = 10;
    for (const ch of body) {
      let s = (Number(ch) + p) % 10;
      if (s === 0) s = 10;
      p = (2 * s) % 11;
    }
    const id = body + String((11 - p) % 10);
    return pick(r, [id, `${id.slice(0, 2)} ${id.slice(2, 5)} ${id.slice(5, 8)} ${id.slice(8)}`]);
  },
  fr_nir: (r) => {
    const b = birth(r);
    const dept = pad(1 + Math.floor(r() * 95), 2);
    const body = `${pick(r, ["1", "2"])}${pad(b.y % 100, 2)}${pad(b.m, 2)}${dept}${digits(r, 3)}${digits(r, 3)}`;
    const key = pad(97 - Number(BigInt(body) % 97n), 2);
    return pick(r, [body + key, `${body[0]} ${body.slice(1, 3)} ${body.slice(3, 5)} ${body.slice(5, 7)} ${body.slice(7, 10)} ${body.slice(10)} ${key}`]);
  },
  br_cpf: (r) => {
    const base = digits(r, 9);
    const d1 = mod11Digit(base, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
    const d2 = mod11Digit(base + d1, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    return `${base.slice(0, 3)}.${base.slice(3, 6)}.${base.slice(6)}-${d1}${d2}`;
  },
  br_cnpj: (r) => {
    const base = digits(r, 8) + "0001";
    const d1 = mod11Digit(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    const d2 = mod11Digit(base + d1, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    return `${base.slice(0, 2)}.${base.slice(2, 5)}.${base.slice(5, 8)}/${base.slice(8)}-${d1}${d2}`;
  },
  es_dni: (r) => {
    const n = digits(r, 8);
    return n + DNI_LETTERS[Number(n) % 23];
  },
  es_nie: (r) => {
    const prefix = pick(r, ["X", "Y", "Z"]);
    const n = digits(r, 7);
    return prefix + n + DNI_LETTERS[Number(String("XYZ".indexOf(prefix)) + n) % 23];
  },
  it_codice_fiscale: (r) => {
    const b = birth(r);
    const female = r() < 0.5;
    const body = `${letters(r, 3, "BCDFGLMNPRSTVZ")}${letters(r, 3, "BCDFGLMNPRSTVZ")}${pad(b.y % 100, 2)}${"ABCDEHLMPRST"[b.m - 1]}${pad(b.d + (female ? 40 : 0), 2)}${letters(r, 1, "ABCDEFGHILM")}${digits(r, 3)}`;
    const sum = [...body].reduce((a, c, i) => a + (i % 2 === 0 ? CF_ODD[cfValue(c)] : cfValue(c)), 0);
    return body + String.fromCharCode(65 + (sum % 26));
  },
  nl_bsn: (r) => {
    for (;;) {
      const base = digits(r, 8, "123456");
      const rest = sumWeighted(base, [9, 8, 7, 6, 5, 4, 3, 2]) % 11;
      if (rest < 10) return base + String(rest);
    }
  },
  ca_sin: (r) => {
    const base = digits(r, 8, "1234567");
    const id = base + luhnDigit(base);
    return pick(r, [id, `${id.slice(0, 3)} ${id.slice(3, 6)} ${id.slice(6)}`, `${id.slice(0, 3)}-${id.slice(3, 6)}-${id.slice(6)}`]);
  },
  cn_resident_id: (r) => {
    const b = birth(r);
    const body = `${pick(r, CN_REGIONS)}${b.y}${pad(b.m, 2)}${pad(b.d, 2)}${digits(r, 3)}`;
    return body + "10X98765432"[sumWeighted(body, [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]) % 11];
  },
  mx_curp: (r) => {
    const b = birth(r);
    const body = `${letters(r, 1, "BCDGHLMPRSTV")}${letters(r, 1, "AEIOU")}${letters(r, 2, "BCDGHLMPRSTV")}${pad(b.y % 100, 2)}${pad(b.m, 2)}${pad(b.d, 2)}${pick(r, ["H", "M"])}${pick(r, CURP_STATES)}${letters(r, 3, "BCDFGHLMNPRSTVZ")}${b.y < 2000 ? digits(r, 1) : letters(r, 1)}`;
    const sum = [...body].reduce((a, c, i) => a + CURP_ALPHABET.indexOf(c) * (18 - i), 0);
    return body + String((10 - (sum % 10)) % 10);
  },
  in_pan: (r) => `${letters(r, 3)}P${letters(r, 1)}${digits(r, 4, "123456789")}${letters(r, 1)}`,
  in_aadhaar: (r) => {
    const base = digits(r, 11, "23456789");
    const id = base + verhoeff(base);
    return pick(r, [id, `${id.slice(0, 4)} ${id.slice(4, 8)} ${id.slice(8)}`]);
  },
  jp_my_number: (r) => {
    const base = digits(r, 11);
    const id = base + mod11Digit([...base].reverse().join(""), [2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6]);
    return pick(r, [id, `${id.slice(0, 4)} ${id.slice(4, 8)} ${id.slice(8)}`, `${id.slice(0, 4)}-${id.slice(4, 8)}-${id.slice(8)}`]);
  },
};

/** Sentences naming the identifier (`named`) and sentences that do not (`plain`), in its country's languages and English. */
const FRAMES: Record<string, { named: string[]; plain: string[] }> = {
  gb_nino: {
    named: ["My National Insurance number is {id}.", "NI number: {id}", "Please update my NINO to {id} on the payroll."],
    plain: ["Reference for Mr Jones: {id}", "{id} - please keep on file"],
  },
  de_tax_id: {
    named: ["Meine Steuer-ID lautet {id}.", "Steueridentifikationsnummer: {id}", "Für die Lohnabrechnung brauche ich die IdNr {id}."],
    plain: ["Bitte notieren: {id}", "Die Nummer {id} gehört zu Herrn Weber."],
  },
  fr_nir: {
    named: ["Mon numéro de sécurité sociale est le {id}.", "N° de sécu : {id}", "Carte Vitale {id}, merci de mettre à jour."],
    plain: ["Voici le numéro de Mme Martin : {id}", "{id} (à conserver)"],
  },
  br_cpf: { named: ["Meu CPF é {id}.", "CPF: {id}", "Informe o CPF {id} na nota."], plain: ["Cliente João Silva, {id}", "Segue o número {id} para cadastro."] },
  br_cnpj: { named: ["CNPJ da empresa: {id}", "O CNPJ {id} está ativo?"], plain: ["Razão social Padaria Boa Vista, {id}", "Fornecedor {id}"] },
  es_dni: { named: ["Mi DNI es {id}.", "DNI: {id}", "Adjunto el NIF {id} para la factura."], plain: ["Titular: Ana López, {id}", "Os paso el número: {id}"] },
  es_nie: { named: ["Mi NIE es {id}.", "NIE {id}, permiso de residencia en trámite."], plain: ["Titular: Mark Evans, {id}", "Número: {id}"] },
  it_codice_fiscale: {
    named: ["Il mio codice fiscale è {id}.", "Codice fiscale: {id}", "C.F. {id}"],
    plain: ["Intestatario: Mario Rossi, {id}", "Ecco i dati: {id}"],
  },
  nl_bsn: {
    named: ["Mijn BSN is {id}.", "Burgerservicenummer: {id}", "BSN {id} staat verkeerd in het systeem."],
    plain: ["Dit is het nummer: {id}", "Klant {id} belde vanochtend."],
  },
  ca_sin: {
    named: ["My SIN is {id}.", "Social Insurance Number: {id}", "Mon numéro d'assurance sociale est le {id}."],
    plain: ["Employee file: {id}", "Please use {id} for the form."],
  },
  cn_resident_id: {
    named: ["我的身份证号码是{id}。", "身份证：{id}", "Resident ID card: {id}"],
    plain: ["联系人王伟，{id}", "编号 {id}"],
  },
  mx_curp: { named: ["Mi CURP es {id}.", "CURP: {id}"], plain: ["Alumno: Luis Hernández, {id}", "Registro {id}"] },
  in_pan: { named: ["My PAN is {id}.", "PAN card number: {id}", "Please link PAN {id} with the account."], plain: ["Applicant: Priya Sharma, {id}", "Details: {id}"] },
  in_aadhaar: { named: ["My Aadhaar number is {id}.", "आधार संख्या: {id}", "Aadhaar {id} linked to mobile?"], plain: ["Applicant: Rahul Verma, {id}", "Number {id}"] },
  jp_my_number: { named: ["マイナンバーは{id}です。", "個人番号：{id}", "My Number: {id}"], plain: ["田中さんの番号は{id}です。", "No. {id}"] },
};

/** Sentences where a valid identifier is an order, part or invoice number: none should be reported. */
const LOOK_ALIKES = ["Order {id} shipped today.", "Part no. {id} is back in stock.", "Invoice {id} is overdue.", "SKU {id} - 3 units", "Tracking number {id}"];

/** The same identifier with one check character changed (or, where there is none, a prefix no issuer uses). */
function broken(label: string, id: string): string {
  if (label === "in_pan") return id.slice(0, 3) + "Q" + id.slice(4);
  if (label === "gb_nino") return "QQ" + id.slice(2);
  const last = id.at(-1)!;
  const next = /\d/.test(last) ? String((Number(last) + 1) % 10) : last === "Z" ? "A" : String.fromCharCode(last.charCodeAt(0) + 1);
  return id.slice(0, -1) + next;
}

interface KindCounts {
  named: number;
  namedHit: Record<string, number>;
  plain: number;
  plainHit: Record<string, number>;
  brokenHit: Record<string, number>;
  lookAlikeHit: Record<string, number>;
  lookAlikes: number;
}

const THRESHOLDS: Level[] = ["l4_less_likely", "l2_very_likely"];
const PER_FRAME = 20;

const found = (text: string, id: string, threshold: Level) => {
  const start = text.indexOf(id);
  return detectNationalIds(text).spans.some((s) => atOrAbove(s.level, threshold) && s.start < start + id.length && start < s.end);
};
const anyAt = (text: string, threshold: Level) => detectNationalIds(text).spans.some((s) => atOrAbove(s.level, threshold));

export function reportNationalIds(report: Report, texts: EvalTexts, seed: number): void {
  const r = rng(seed + 27);
  const { out } = report;
  const rows: [string, KindCounts][] = ID_KINDS.map((kind) => {
    const c: KindCounts = { named: 0, namedHit: {}, plain: 0, plainHit: {}, brokenHit: {}, lookAlikeHit: {}, lookAlikes: 0 };
    const frames = FRAMES[kind.label];
    const fill = (frame: string, id: string) => frame.replace("{id}", id);
    for (const [which, list] of [
      ["named", frames.named],
      ["plain", frames.plain],
    ] as const) {
      for (const frame of list) {
        for (let i = 0; i < PER_FRAME; i++) {
          const id = GENERATE[kind.label](r);
          const text = fill(frame, id);
          c[which]++;
          for (const t of THRESHOLDS) {
            const hits = which === "named" ? c.namedHit : c.plainHit;
            if (found(text, id, t)) hits[t] = (hits[t] ?? 0) + 1;
            if (which === "named" && anyAt(fill(frame, broken(kind.label, id)), t)) c.brokenHit[t] = (c.brokenHit[t] ?? 0) + 1;
          }
        }
      }
    }
    for (const frame of LOOK_ALIKES) {
      const id = GENERATE[kind.label](r);
      c.lookAlikes++;
      for (const t of THRESHOLDS) if (anyAt(fill(frame, id), t)) c.lookAlikeHit[t] = (c.lookAlikeHit[t] ?? 0) + 1;
    }
    return [kind.label, c];
  });
  out(
    `National identifiers (built-in guardrail \`custom-guardrail-builtin-national-ids\`; ${PER_FRAME} generated valid identifiers per sentence frame, frames written for this script; recall at l4 / l2):`,
  );
  out("");
  out("| identifier | recall, named in the sentence | recall, not named | broken check digit flagged | as an order or part number flagged |");
  out("|---|---:|---:|---:|---:|");
  const ratio = (hits: Record<string, number>, n: number) => THRESHOLDS.map((t) => pct((hits[t] ?? 0) / Math.max(1, n))).join(" / ");
  for (const [label, c] of rows) {
    out(`| ${label} | ${ratio(c.namedHit, c.named)} | ${ratio(c.plainHit, c.plain)} | ${ratio(c.brokenHit, c.named)} | ${ratio(c.lookAlikeHit, c.lookAlikes)} |`);
  }
  const caught = rows.filter(([, c]) => (c.namedHit.l4_less_likely ?? 0) / c.named >= 0.9).length;
  const clean = (list: string[]) => THRESHOLDS.map((t) => pct(list.filter((x) => anyAt(x, t)).length / Math.max(1, list.length))).join(" / ");
  out("");
  out(
    `Identifiers caught (recall >= 0.9 where named, l4): ${caught} of ${rows.length}. Clean texts flagged (l4 / l2): English ${clean(texts.benign)}, other languages ${clean(texts.multilingual.map((x) => x.text))}.`,
  );
  out("");
}
