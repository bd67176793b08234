import { describe, expect, it } from "vitest";
import { detectAddress } from "../../src/screening/detectors/pii/address.js";
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
