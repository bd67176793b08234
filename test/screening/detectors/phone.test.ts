import { describe, expect, it } from "vitest";
import { detectPhoneNumber } from "../../../src/screening/detectors/pii/phone.js";
import { covered, coveredAtLeast, expectNothingFlagged } from "./helpers.js";

describe("pii/phone_number", () => {
  it("finds valid US and international numbers with extensions", () => {
    const text = "Call me at (415) 555-2671 or +44 20 7946 0958 x12, office 703.301.3354";
    const d = detectPhoneNumber(text);
    expect(covered(text, d)).toEqual(["(415) 555-2671", "+44 20 7946 0958 x12", "703.301.3354"]);
    expect(d.spans.map((s) => s.labels)).toEqual([["US"], ["GB"], ["US"]]);
    expect(d.spans[0].level).toBe("l1_confident");
  });

  it("rates possible-but-invalid numbers l3/l4", () => {
    const text = "+17453189368";
    const d = detectPhoneNumber(text);
    expect(coveredAtLeast(text, d, "l2_very_likely")).toEqual([]);
    expect(covered(text, d)).toEqual(["+17453189368"]);
  });

  it("keeps bare digit strings without phone words below the default threshold", () => {
    const text = "order 4155552671 shipped";
    expectNothingFlagged(text, detectPhoneNumber(text));
    expect(coveredAtLeast("call 4155552671", detectPhoneNumber("call 4155552671"), "l2_very_likely")).toEqual(["4155552671"]);
  });

  it("leaves cards, IPs, SSNs, dates and IBANs to their detectors", () => {
    const text = "card 4111 1111 1111 1111, ip 192.168.100.200, ssn 536-22-8901, on 2024-01-15 and 12/25/2023, DE89 3704 0044 0532 0130 00";
    expectNothingFlagged(text, detectPhoneNumber(text));
  });

  it("does not join numbers on different lines", () => {
    const text = "ZIP 94103\n(415) 555-2671";
    expect(covered(text, detectPhoneNumber(text))).toEqual(["(415) 555-2671"]);
  });

  it("keeps UTF-16 offsets past emoji and Japanese", () => {
    const text = "📞 電話: +81 3-1234-5678 です";
    expect(covered(text, detectPhoneNumber(text))).toEqual(["+81 3-1234-5678"]);
  });
});

describe("pii/phone_number outside the US", () => {
  const flagged = (text: string) => coveredAtLeast(text, detectPhoneNumber(text), "l4_less_likely");

  it("finds E.164 and numbers written with an international prefix", () => {
    expect(flagged("Call me on +49 30 12345678 tomorrow.")).toEqual(["+49 30 12345678"]);
    expect(flagged("Phone: +91 98765 43210")).toEqual(["+91 98765 43210"]);
    expect(flagged("WhatsApp +34.612.345.678")).toEqual(["+34.612.345.678"]);
    expect(flagged("Telefon: 0049 (0)30 1234567")).toEqual(["0049 (0)30 1234567"]);
    expect(flagged("Numéro : 0041 79 854 43 79")).toEqual(["0041 79 854 43 79"]);
    const d = detectPhoneNumber("+44 20 7946 0958");
    expect(d.level).toBe("l1_confident");
    expect(d.spans[0].labels).toEqual(["GB"]);
  });

  it("finds national formats of many regions, with spaces, dots, dashes, slashes and brackets", () => {
    expect(flagged("Meine Nummer: 030 12345678")).toEqual(["030 12345678"]);
    expect(flagged("Ruf mich an: 0221/1234567")).toEqual(["0221/1234567"]);
    expect(flagged("Appelez le 01 42 68 53 00 avant midi.")).toEqual(["01 42 68 53 00"]);
    expect(flagged("Appelez le 01.42.68.53.00 avant midi.")).toEqual(["01.42.68.53.00"]);
    expect(flagged("Llámame al 612 34 56 78, por favor.")).toEqual(["612 34 56 78"]);
    expect(flagged("Il mio cellulare è 347 123 4567.")).toEqual(["347 123 4567"]);
    expect(flagged("Telefone: (11) 98765-4321")).toEqual(["(11) 98765-4321"]);
    expect(flagged("Мой телефон: 8 (912) 345-67-89")).toEqual(["8 (912) 345-67-89"]);
    expect(flagged("電話番号は 03-1234-5678 です。")).toEqual(["03-1234-5678"]);
    expect(flagged("Ring me on 020 7946 0958 or 07700 900123.")).toEqual(["020 7946 0958", "07700 900123"]);
    expect(flagged("Bel me op 06-12345678.")).toEqual(["06-12345678"]);
    expect(flagged("Mobile 0412 345 678")).toEqual(["0412 345 678"]);
    // A trunk prefix and phone-like groups are enough without phone words.
    expect(flagged("Kontaktieren Sie uns unter 089 1234 5678.")).toEqual(["089 1234 5678"]);
  });

  it("reads phone words after the number and in other scripts", () => {
    expect(flagged("Jana Nováková\n602 123 456-Office, 602 987 654-Fax")).toEqual(["602 123 456", "602 987 654"]);
    expect(flagged("联系电话 010 6552 9988")).toEqual(["010 6552 9988"]);
    // Hindi, Arabic, Greek and Vietnamese phone words.
    expect(flagged("मेरा मोबाइल नंबर 98765 43210 है।")).toEqual(["98765 43210"]);
    expect(flagged("رقم جوالي 0501234567")).toEqual(["0501234567"]);
    expect(flagged("Το κινητό μου είναι 691 234 5678.")).toEqual(["691 234 5678"]);
    expect(flagged("Số điện thoại của tôi là 0912 345 678.")).toEqual(["0912 345 678"]);
  });

  it("never takes dates, times, versions, IP addresses or postcodes", () => {
    for (const text of [
      "We met on 2024-01-15 at the office.",
      "The invoice is dated 15.01.2024.",
      "Due 01/15/2024 at 10:30.",
      "Born on 05.08.1979 13:42:59 in Ankara.",
      "The meeting runs 09:30-11:45 on 12.03.2024.",
      "Upgrade to version 10.0.19041.1234 now.",
      "Server 192.168.100.200 is down.",
      "Between 1685–1753 he lived in Cloyne.",
      "The score was 6-2 6-7 (3-7) 6-3.",
      "Ship to Springfield, IL 62704-1234.",
      "CEP 01310-200, São Paulo",
      "〒100-0001 東京都千代田区",
      "ISBN 978-3-16-148410-0",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
  });

  it("keeps order ids, quantities and other long numbers without phone words below the threshold", () => {
    for (const text of [
      "Order #12345678 shipped.",
      "Order number 2024-123456 is ready.",
      "The population is 12345678.",
      "There were 1 234 567 visitors.",
      "Reference 0123456789 is attached.",
      "Pi is 3.14159265358.",
      "Invoice no. 20 45 67 89 was paid.",
      "His social security number is 341708167",
      "Die Fläche beträgt 7 000 000 km2.",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
  });

  it("finds Japanese numbers glued to Japanese words, and Spanish mobiles written as people write them", () => {
    const at = (text: string, level: "l1_confident" | "l2_very_likely") => coveredAtLeast(text, detectPhoneNumber(text), level);
    expect(at("携帯は090-1234-5678です", "l1_confident")).toEqual(["090-1234-5678"]);
    expect(at("電話番号は03-1234-5678です。", "l1_confident")).toEqual(["03-1234-5678"]);
    expect(at("090-1234-5678に電話してください", "l1_confident")).toEqual(["090-1234-5678"]);
    expect(at("お問い合わせ：080 1234 5678", "l2_very_likely")).toEqual(["080 1234 5678"]);
    expect(at("Mi teléfono es 912 345 678", "l2_very_likely")).toEqual(["912 345 678"]);
    expect(at("Escríbeme al 678 90 12 34 por WhatsApp", "l2_very_likely")).toEqual(["678 90 12 34"]);
    expect(at("Mi móvil es 612 34 56 78", "l2_very_likely")).toEqual(["612 34 56 78"]);
  });

  it("keeps part, item and order numbers, in any script, below the threshold (look-alikes)", () => {
    for (const text of [
      "Part number 123456789012 ships tomorrow.",
      "Item 4006381333931 restocked.",
      "P/N 1234-5678-9012 is discontinued.",
      "The pallet holds 412 555 2671 pcs.",
      "注文番号は1234-5678-9012です",
      "订单号 13912345678",
      "第1234567号",
      "DHL says shipment 3941 8826 5510 is held at customs.",
      "Ma commande n° 4471 2290 5538 n'est toujours pas arrivée.",
      "Das Paket 0341 2290 5538 liegt in der Filiale.",
      // Numbers shaped like a code named earlier are more of those codes.
      "Orders 0341 2290 5538, 0341 2290 5612 and 0341 2290 5790 were merged into one parcel.",
      "Le modèle 7421-55-9031 remplace le 7421-55-9032 et les modèles 7421-55-8810, 7421-55-8811.",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
    // ... unless phone words say otherwise.
    expect(flagged("Order 0341 2290 5538 is paid; call me on my mobile 0341 2290 5539.")).toEqual(["0341 2290 5539"]);
  });
});
