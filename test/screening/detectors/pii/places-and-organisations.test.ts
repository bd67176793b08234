// Places and organisations are not people: towns of the gazetteer in many languages and
// scripts, company forms and trade words, teams and departments. Probes written for this test.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { townsFile, townTableBytes } from "../../../../training/lexicons/build-towns.js";
import { isKnownTown } from "../../../../src/screening/detectors/pii/gazetteer.js";
import { buildTownTable, townLookup } from "../../../../src/screening/detectors/pii/town-table.js";
import { detectAddress } from "../../../../src/screening/detectors/pii/address/index.js";
import { detectName } from "../../../../src/screening/detectors/pii/name/index.js";
import { coveredAtLeast } from "../helpers.js";

const flagged = (text: string) => coveredAtLeast(text, detectName(text), "l4_less_likely");
const addresses = (text: string) => coveredAtLeast(text, detectAddress(text), "l3_likely");

describe("pii/name: places of the gazetteer", () => {
  it("does not take towns written in other languages for people", () => {
    for (const text of [
      "Nel 1848 gli insorti cacciarono gli austriaci da Brescia e poi da Pechino non arrivò nessuna notizia.",
      "Wann wurde Karthago von den Römern zerstört, und was geschah danach mit Utica?",
      "¿Cuántos habitantes tiene Tegucigalpa comparada con Cochabamba?",
      "Depuis Tombouctou, la caravane rejoignait Agadez en trois semaines.",
      "Поезд идёт через Екатеринбург и Новосибирск.",
      '{"origin":"Guangzhou","destination":"Chengdu","stops":["Changsha"]}',
      '{"city":"成都","district":"锦江","weather":"多云"}',
      '{"도시":"부산","날씨":"맑음"}',
      "Quanto dista Sparta da Atene?",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
  });

  it("keeps a person whose name is also a town when a cue says so", () => {
    expect(flagged("My name is Trani and I need help with my account")).toEqual(["Trani"]);
    expect(flagged("Rispondi a Giulia Troia entro domani")).toEqual(["Giulia Troia"]);
    expect(flagged("Jackson called about the invoice.")).toEqual(["Jackson"]);
    expect(flagged("Dear Hamilton, thanks for the update.")).toEqual(["Hamilton"]);
  });
});

describe("pii/name: organisations, teams and departments", () => {
  it("does not take company names with a trade word or a company form of another country", () => {
    for (const text of [
      "Payment received from Okafor Traders for invoice 2291.",
      "We ordered the parts from Mensah Imports.",
      "Vendor: Lakshmi Textiles Pvt Ltd",
      "The lease is with Tanaka Holdings K.K. until 2027.",
      "Die Rechnung von Brandt Logistics ist bezahlt.",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
  });

  it("does not take teams and departments in meeting notes", () => {
    for (const text of [
      "Besprechung: das Plattform-Team übernimmt das Monitoring, die IT-Abteilung prüft die Lizenzen.",
      "Laut Vertriebsabteilung und Marketingteam steigen die Zahlen.",
      "会议记录：运维团队负责迁移，财务部确认预算。",
      "議事録：インフラチームが移行を担当し、経理部が予算を確認する。",
      "회의록: 인프라팀이 이전을 맡고 재무부가 예산을 확인합니다.",
      "Notes: Equipo Norte revisa los contratos.",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
  });

  it("does not take a unit word before its number in an address block", () => {
    expect(flagged("Ivana Horvat\nVukovarska 12\nStan 4\nOsijek")).toEqual(["Ivana Horvat"]);
    expect(flagged("Stan called about the flat.")).toEqual(["Stan"]);
  });

  it("still finds the people in the same notes", () => {
    expect(flagged("Besprechung: Herr Albrecht vom Plattform-Team übernimmt das Monitoring.")).toEqual(["Albrecht"]);
    expect(flagged("회의록: 김서연 님이 인프라팀 이전을 맡습니다.")).toEqual(["김서연"]);
  });
});

describe("pii/address: street lines without a type before a known town", () => {
  it("finds them", () => {
    expect(addresses("Moja adresa je Dubravska 14, Varaždin")).toEqual(["Dubravska 14, Varaždin"]);
    expect(addresses("Bývam na adrese Hurbanova 22, Trnava.")).toEqual(["Hurbanova 22, Trnava"]);
  });

  it("does not take scores, chapters or towns before a number", () => {
    for (const text of ["Final: Arsenal 2, Chelsea 1", "Read Chapter Nine 12, London edition", "Paris 2, Lyon 0"]) {
      expect(addresses(text), text).toEqual([]);
    }
  });
});

describe("pii/address: Czech and Slovak streets opening with a preposition", () => {
  it("finds them with a postcode or a town", () => {
    expect(addresses("Pošlete to na adresu Pod Lipou 12, 110 00 Praha")).toEqual(["Pod Lipou 12, 110 00 Praha"]);
    expect(addresses("Doručte balík: Ku kaplnke 3, Trenčín")).toEqual(["Ku kaplnke 3, Trenčín"]);
  });

  it("does not take a preposition and a number alone or a sentence after a town", () => {
    for (const text of ["Na 5 minut odejdu.", "Now 21, Wilson was released on Friday."]) {
      expect(addresses(text), text).toEqual([]);
    }
  });
});

describe("the town table", () => {
  it("is what the generator makes of the GeoNames table (training/lexicons/build-towns.ts)", () => {
    expect(readFileSync(townsFile).equals(townTableBytes())).toBe(true);
  });
  it("knows towns in several scripts and not ordinary words", () => {
    for (const town of ["troia", "pechino", "екатеринбург", "成都", "부산", "buenos aires"]) expect(isKnownTown(town), town).toBe(true);
    for (const word of ["thanks", "saturday", "kubernetes", "谢谢", ""]) expect(isKnownTown(word), word).toBe(false);
  });
  it("finds every name it holds and refuses a file of another format", () => {
    const names = Array.from({ length: 5000 }, (_, i) => `town ${i.toString(36)}`);
    const has = townLookup(buildTownTable(names));
    expect(names.every(has)).toBe(true);
    expect(names.filter((n) => has(n + "!"))).toEqual([]);
    expect(() => townLookup(new Uint32Array(8))).toThrow(/not a town table/);
  });
});
