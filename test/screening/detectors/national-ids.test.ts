// National identifiers of twelve countries (src/screening/detectors/pii/national-ids/):
// each kind found in a sentence of its own language, a broken check digit
// refused, bare digits reported only beside words that name them, and
// order or part numbers left alone.
import { describe, expect, it } from "vitest";
import { detectNationalIds } from "../../../src/screening/detectors/pii/national-ids/index.js";
import { validMyNumber } from "../../../src/screening/detectors/pii/national-ids/my-number.js";
import { BUILTIN_GUARDRAIL_IDS, builtinGuardrail } from "../../../src/screening/detectors/pii/national-ids/pack.js";
import { cpuTimed } from "../../support/cpu-time.js";
import { covered, expectNothing } from "./helpers.js";

/** One sentence per identifier, in the language people write it in; the number, its label, and a copy with a wrong check digit. */
const probes: { text: string; id: string; label: string; broken: string }[] = [
  { text: "My National Insurance number is AB 12 34 56 C.", id: "AB 12 34 56 C", label: "gb_nino", broken: "QQ 12 34 56 C" },
  { text: "Meine Steuer-ID lautet 36 574 261 809, bitte eintragen.", id: "36 574 261 809", label: "de_tax_id", broken: "36 574 261 808" },
  { text: "Mon numéro de sécurité sociale : 2 95 10 99 126 111 93", id: "2 95 10 99 126 111 93", label: "fr_nir", broken: "2 95 10 99 126 111 94" },
  { text: "Segue meu CPF: 390.533.447-05 para o cadastro.", id: "390.533.447-05", label: "br_cpf", broken: "390.533.447-06" },
  { text: "CNPJ da empresa 16.727.230/0001-97", id: "16.727.230/0001-97", label: "br_cnpj", broken: "16.727.230/0001-98" },
  { text: "Mi DNI es 54362315K, gracias.", id: "54362315K", label: "es_dni", broken: "54362315J" },
  { text: "Tengo NIE X2482300W desde 2019.", id: "X2482300W", label: "es_nie", broken: "X2482300A" },
  { text: "Il mio codice fiscale è RCCMNL83S18D969H.", id: "RCCMNL83S18D969H", label: "it_codice_fiscale", broken: "RCCMNL83S18D969A" },
  { text: "Mijn BSN is 111222333 en mijn adres volgt.", id: "111222333", label: "nl_bsn", broken: "111222334" },
  { text: "Here is my SIN: 046 454 286", id: "046 454 286", label: "ca_sin", broken: "046 454 287" },
  { text: "我的身份证号码是360426199101010071，请核对。", id: "360426199101010071", label: "cn_resident_id", broken: "360426199101010072" },
  { text: "Mi CURP es BOXW310820HNERXN09", id: "BOXW310820HNERXN09", label: "mx_curp", broken: "BOXW310820HNERXN08" },
  { text: "My PAN is ACUPA7085R for the income tax form.", id: "ACUPA7085R", label: "in_pan", broken: "ACUQA7085R" },
  { text: "मेरा आधार नंबर 2341 2341 2346 है", id: "2341 2341 2346", label: "in_aadhaar", broken: "2341 2341 2345" },
  { text: "マイナンバーは1234 5678 9018です。", id: "1234 5678 9018", label: "jp_my_number", broken: "1234 5678 9017" },
];

describe("national identifiers", () => {
  it.each(probes)("finds $label with the words that name it, at l1", ({ text, id, label }) => {
    const d = detectNationalIds(text);
    expect(covered(text, d)).toEqual([id]);
    expect(d.spans[0].labels).toEqual([label]);
    expect(d.level).toBe("l1_confident");
  });

  it.each(probes)("refuses $label with a wrong check digit or prefix", ({ text, id, broken }) => {
    expectNothing(detectNationalIds(text.replace(id, broken)));
  });

  it("finds distinctive shapes without naming words at l2, grouped ones at l3", () => {
    for (const [text, level] of [
      ["send to 390.533.447-05 today", "l2_very_likely"],
      ["16.727.230/0001-97", "l2_very_likely"],
      ["54362315K", "l2_very_likely"],
      ["holder RCCMNL83S18D969H", "l2_very_likely"],
      ["360426199101010071", "l2_very_likely"],
      ["BOXW310820HNERXN09", "l2_very_likely"],
      ["AB123456C", "l2_very_likely"],
      ["ACUPA7085R", "l3_likely"],
    ] as const) {
      expect(detectNationalIds(text).level, text).toBe(level);
    }
  });

  it("reports bare digits only beside words that name them (a nine-digit BSN or SIN is any number otherwise)", () => {
    for (const text of ["111222333", "reference 046 454 286", "36574261809", "call 2341 2341 2346", "123456789018", "Total: 39053344705"]) {
      expectNothing(detectNationalIds(text));
    }
    expect(detectNationalIds("national ID number 111222333").level).toBe("l2_very_likely");
    expect(detectNationalIds("111222333 is my burgerservicenummer").level).toBe("l1_confident");
  });

  it("leaves order, part and invoice numbers alone", () => {
    expectNothing(detectNationalIds("Order 390533447-05 shipped"));
    expectNothing(detectNationalIds("SKU ACUPA7085R restocked"));
    expectNothing(detectNationalIds("part 54362315K"));
    expectNothing(detectNationalIds("Invoice 16.727.230/0001-97 is overdue"));
    expect(detectNationalIds("Order 7781 for CPF 390.533.447-05").level).toBe("l1_confident");
  });

  it("takes words naming an identifier in capitals only where they are also common words", () => {
    expectNothing(detectNationalIds("sin 046 454 286 euros"));
    expect(detectNationalIds("SIN 046 454 286").level).toBe("l1_confident");
  });

  it("does not read a number out of a longer one or a word", () => {
    expectNothing(detectNationalIds("BSN 1111222333 or 111222333444 or X111222333 or 12 111222333"));
    expectNothing(detectNationalIds("CPF 1390.533.447-05"));
  });

  it("refuses one digit repeated, which passes several check digit rules", () => {
    expectNothing(detectNationalIds("CPF 111.111.111-11, BSN 999999999"));
  });

  it("one identifier per span: the surer reading wins where kinds overlap", () => {
    const text = "BSN 111222333";
    expect(detectNationalIds(text).spans).toEqual([{ start: 4, end: 13, level: "l1_confident", labels: ["nl_bsn"] }]);
  });

  it("checks the Japanese Individual Number's check digit", () => {
    expect(validMyNumber("123456789018")).toBe(true);
    expect(validMyNumber("123456789017")).toBe(false);
    // Remainder 0 or 1 gives check digit 0.
    expect(validMyNumber("200000000000")).toBe(true);
    expect(validMyNumber("200000000001")).toBe(false);
    expect(validMyNumber("12345678901")).toBe(false);
  });

  it("keeps UTF-16 offsets past emoji", () => {
    const text = "😀 Mijn BSN: 111222333 🆗";
    expect(covered(text, detectNationalIds(text))).toEqual(["111222333"]);
  });

  it("stays linear on hostile input: long digit runs, many valid identifiers", () => {
    const time = (n: number) => {
      const texts = ["7".repeat(n), "1 ".repeat(n / 2), "BSN 111222333 ".repeat(n / 14), "AB12 ".repeat(n / 5)];
      return cpuTimed(() => texts.forEach((t) => detectNationalIds(t))).ms;
    };
    time(20_000);
    const small = Math.min(time(40_000), time(40_000));
    const large = Math.min(time(160_000), time(160_000));
    // Two doublings: linear is 4x, quadratic 16x.
    expect(large / Math.max(small, 1)).toBeLessThan(9);
  });
});

describe("the built-in national-ID guardrails", () => {
  it("one for every country and one for all, each labelled national_id", () => {
    expect(BUILTIN_GUARDRAIL_IDS).toEqual([
      "custom-guardrail-builtin-national-ids",
      ...["gb", "de", "fr", "br", "es", "it", "nl", "ca", "cn", "mx", "in", "jp"].map((c) => `custom-guardrail-builtin-national-ids-${c}`),
    ]);
    for (const id of BUILTIN_GUARDRAIL_IDS) expect(builtinGuardrail(id)?.labels).toEqual(["national_id"]);
    expect(builtinGuardrail("custom-guardrail-builtin-national-ids-us")).toBeUndefined();
  });

  it("a country's guardrail finds only its own identifiers", () => {
    const text = "BSN 111222333, DNI 54362315K";
    expect(covered(text, builtinGuardrail("custom-guardrail-builtin-national-ids-nl")!.detect(text))).toEqual(["111222333"]);
    expect(covered(text, builtinGuardrail("custom-guardrail-builtin-national-ids")!.detect(text))).toEqual(["111222333", "54362315K"]);
  });
});
