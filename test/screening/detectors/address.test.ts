import { describe, expect, it } from "vitest";
import { detectAddress } from "../../../src/screening/detectors/pii/address/index.js";
import { covered, coveredAtLeast, expectNothing } from "./helpers.js";

describe("pii/address", () => {
  it("finds a full address with state and ZIP at l1", () => {
    const text = "Ship it to 1600 Pennsylvania Ave NW, Washington, DC 20500 by Friday.";
    const d = detectAddress(text);
    expect(covered(text, d)).toEqual(["1600 Pennsylvania Ave NW, Washington, DC 20500"]);
    expect(d.level).toBe("l1_confident");
  });

  it("takes units, ordinals, directionals, ZIP+4 and full state names", () => {
    const text = "New address: 5993 E 11th Street Apt. 250, East Tyrese, New Hampshire 89457-2450";
    expect(covered(text, detectAddress(text))).toEqual(["5993 E 11th Street Apt. 250, East Tyrese, New Hampshire 89457-2450"]);
  });

  it("follows an address over lines", () => {
    const text = "Billing:\n  445 3rd Avenue Suite 905\n  Lake Leila\n  KS\n  94239-9892\n";
    const d = detectAddress(text);
    expect(covered(text, d)).toEqual(["445 3rd Avenue Suite 905\n  Lake Leila\n  KS\n  94239-9892"]);
    expect(d.level).toBe("l1_confident");
  });

  it("finds post boxes", () => {
    const text = "PO Box 123, Springfield, IL 62704";
    expect(covered(text, detectAddress(text))).toEqual(["PO Box 123, Springfield, IL 62704"]);
  });

  it("rates a street line alone lower, raised by address words", () => {
    const alone = "The restaurant is near 12 Oak Lane";
    expect(coveredAtLeast(alone, detectAddress(alone), "l2_very_likely")).toEqual([]);
    expect(covered(alone, detectAddress(alone))).toEqual(["12 Oak Lane"]);
    const cued = "I live at 12 Oak Lane";
    expect(detectAddress(cued).level).toBe("l2_very_likely");
  });

  it("does not take counts, years or prices followed by capitalised words", () => {
    expectNothing(detectAddress("I bought 3 apples and 2 pears for 5 dollars"));
    expectNothing(detectAddress("In 2019 we moved; Chapter 3 Summary follows"));
  });

  it("keeps UTF-16 offsets past emoji and accents", () => {
    const text = "📦 Dirección: 742 Evergreen Terrace, Springfield, OR 97403 🏠";
    expect(covered(text, detectAddress(text))).toEqual(["742 Evergreen Terrace, Springfield, OR 97403"]);
  });
});

describe("pii/address outside the US", () => {
  const flagged = (text: string) => coveredAtLeast(text, detectAddress(text), "l4_less_likely");

  it("reads British, Irish, Canadian and Australian postcodes after the town", () => {
    for (const [text, address] of [
      ["Please send it to 10 Downing Street, London SW1A 2AA.", "10 Downing Street, London SW1A 2AA"],
      ["My flat is 221B Baker Street, London NW1 6XE, United Kingdom.", "221B Baker Street, London NW1 6XE"],
      ["Post it to 7 Church Close\nYork\nYO1 7HH", "7 Church Close\nYork\nYO1 7HH"],
      ["She lives at 39 The Spinney, Leeds LS1 4AB.", "39 The Spinney, Leeds LS1 4AB"],
      ["Deliver to 12 Main Street, Dublin D02 X285.", "12 Main Street, Dublin D02 X285"],
      ["I live at 350 Queen Street, Toronto, ON M5H 2N2.", "350 Queen Street, Toronto, ON M5H 2N2"],
      ["Ship to 42 Wallaby Way, Sydney NSW 2000.", "42 Wallaby Way, Sydney NSW 2000"],
    ]) {
      const d = detectAddress(text);
      expect(covered(text, d), text).toEqual([address]);
      expect(d.level, text).toBe("l1_confident");
    }
  });

  it("reads street-first lines with a postcode before the town (DE, NL, IT, ES, PL, CZ, NO, DK, FI, TR)", () => {
    for (const [text, address] of [
      ["Meine Adresse: Hauptstraße 5, 10115 Berlin", "Hauptstraße 5, 10115 Berlin"],
      ["Wir wohnen in der Kastanienallee 12a, 80331 München.", "Kastanienallee 12a, 80331 München"],
      ["Lieferung an Am Frankenberg 3, 34117 Kassel", "Am Frankenberg 3, 34117 Kassel"],
      ["Mijn adres is Kalverstraat 92, 1012 PH Amsterdam.", "Kalverstraat 92, 1012 PH Amsterdam"],
      ["Stuur het naar Prinsengracht 263\n1016 GV Amsterdam", "Prinsengracht 263\n1016 GV Amsterdam"],
      ["Indirizzo: Via Roma 12, 00184 Roma (RM)", "Via Roma 12, 00184 Roma (RM)"],
      ["Abito in Corso Vittorio Emanuele II 45, 10123 Torino.", "Corso Vittorio Emanuele II 45, 10123 Torino"],
      ["Mi dirección es Calle Mayor 5, 28013 Madrid.", "Calle Mayor 5, 28013 Madrid"],
      ["Vivo en Avenida de la Constitución 20, 41004 Sevilla.", "Avenida de la Constitución 20, 41004 Sevilla"],
      ["Adres: ul. Marszałkowska 10/12, 00-590 Warszawa", "ul. Marszałkowska 10/12, 00-590 Warszawa"],
      ["Adresa: Vinohradská 1234/56, 120 00 Praha", "Vinohradská 1234/56, 120 00 Praha"],
      ["Adressen er Karl Johans gate 22, 0159 Oslo.", "Karl Johans gate 22, 0159 Oslo"],
      ["Kontoret ligger på Nørrebrogade 10, 2200 København", "Nørrebrogade 10, 2200 København"],
      ["Our office: Mannerheimintie 12 B, 00100 Helsinki", "Mannerheimintie 12 B, 00100 Helsinki"],
      ["Gönderi adresi Atatürk Caddesi No: 12, 34000 İstanbul.", "Atatürk Caddesi No: 12, 34000 İstanbul"],
    ]) {
      const d = detectAddress(text);
      expect(covered(text, d), text).toEqual([address]);
      expect(d.level, text).toBe("l1_confident");
    }
  });

  it("reads number-first lines with the street type before the name (FR, PT, BR) and postcodes of their form", () => {
    for (const [text, address] of [
      ["Adresse : 12 rue de la Paix, 75002 Paris", "12 rue de la Paix, 75002 Paris"],
      ["Envoyez-le au 8, boulevard Saint-Michel, 75006 Paris.", "8, boulevard Saint-Michel, 75006 Paris"],
      ["Moro na Rua Augusta 100, 1100-053 Lisboa.", "Rua Augusta 100, 1100-053 Lisboa"],
      ["Endereço: Avenida Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200", "Avenida Paulista, 1578 - Bela Vista, São Paulo - SP, 01310-200"],
    ]) {
      expect(covered(text, detectAddress(text)), text).toEqual([address]);
    }
  });

  it("reads the town and postcode before the street (HU, RU) and Cyrillic street types", () => {
    expect(flagged("Cím: 1051 Budapest, Nádor utca 5.")).toEqual(["1051 Budapest, Nádor utca 5"]);
    expect(flagged("Адрес: 125009, Москва, ул. Тверская, д. 7")).toEqual(["125009, Москва, ул. Тверская, д. 7"]);
    expect(flagged("Моя адреса: вулиця Хрещатик, 22, Київ, 01001")).toEqual(["вулиця Хрещатик, 22, Київ, 01001"]);
  });

  it("rates a typed street line alone l3 and a street without a type only with its postcode", () => {
    const alone = "Das Café ist in der Bergmannstraße 12.";
    expect(covered(alone, detectAddress(alone))).toEqual(["Bergmannstraße 12"]);
    expect(detectAddress(alone).level).toBe("l3_likely");
    expect(flagged("Meet me at Vinohradská 12 tomorrow.")).toEqual([]);
  });

  it("reads Japanese, Chinese and Korean addresses", () => {
    expect(flagged("住所は〒100-0001 東京都千代田区千代田1-1です。")).toEqual(["〒100-0001 東京都千代田区千代田1-1"]);
    expect(flagged("東京都新宿区西新宿2丁目8番1号")).toEqual(["東京都新宿区西新宿2丁目8番1号"]);
    expect(flagged("请寄到北京市朝阳区建国路88号，谢谢。")).toEqual(["北京市朝阳区建国路88号"]);
    expect(flagged("台北市信義區信義路五段7號 5樓")).toEqual(["台北市信義區信義路五段7號 5樓"]);
    expect(flagged("서울특별시 종로구 세종대로 209")).toEqual(["서울특별시 종로구 세종대로 209"]);
    expect(detectAddress("서울특별시 종로구 세종대로 209").level).toBe("l1_confident");
  });

  it("does not take dates, versions, prices or counts for addresses", () => {
    for (const text of [
      "Thu, 10 Feb 2022 05:11:14 +0000",
      "On 23 September 1946, a strike began.",
      "Im Jahr 2020 wurde das Gesetz geändert.",
      "In den Jahren 1563, 1593 und 1603 kam die Pest.",
      "Milestone 1, Build 7850, was leaked.",
      "I paid $15 via Amazon.",
      "Tony is at the main car park. Lorry will be 10 minutes late.",
      "Windows 10, 2021 edition",
      "Part 2 The Rise of Skywalker opened in December.",
      "阿波罗11号是第一次登月任务。",
      "地铁1号线很方便，5月3号见。",
      "학교로 5분 걸어가요.",
    ]) {
      expect(flagged(text), text).toEqual([]);
    }
  });
});

describe("pii/address: Japanese block numbers without a postcode", () => {
  it("finds chome-block-house numbers glued to the town after a prefecture and a ward", () => {
    for (const [text, address] of [
      ["住所は東京都渋谷区神南1-2-3です", "東京都渋谷区神南1-2-3"],
      ["大阪府大阪市北区梅田3-1-3までお越しください", "大阪府大阪市北区梅田3-1-3"],
    ]) {
      expect(coveredAtLeast(text, detectAddress(text), "l1_confident"), text).toEqual([address]);
    }
  });

  it("does not take phone numbers, dates or numbers without two administrative units", () => {
    for (const text of ["東京都の電話03-1234-5678", "東京都渋谷区で2024-01-15に会いましょう", "第1-2号", "神南1-2-3"]) {
      expectNothing(detectAddress(text));
    }
  });
});
