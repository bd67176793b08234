// PII texts: every {{slot}} of a sentence template filled with a fake value
// (slots.ts) that keeps its span as a gold label, and the regions where a hit
// is not counted either way.
import type { PiiType } from "./detectors.js";
import { fillerFor, type Filler } from "./fillers.js";
import { FILLS_PER_LOCALE, type LocaleSpec } from "./held-out.js";
import { fill, type Slot } from "./slots.js";

export interface Sample {
  text: string;
  /** The locale the text was filled in ("mixed" in the older split). */
  locale: string;
  gold: { start: number; end: number; type: PiiType; locale?: string }[];
  ignore: { start: number; end: number; types: PiiType[] }[];
}

/** Fillings of each template in the older split (--by template). */
export const PER_TEMPLATE = 30;

/** The texts of the templates: each locale's FILLS_PER_LOCALE fillings, or PER_TEMPLATE fillings of the older mixes. */
export function fillTemplates(templates: string[], locales: readonly LocaleSpec[], legacy: boolean): Sample[] {
  const samples: Sample[] = [];
  if (legacy) {
    const src = fillerFor(null);
    for (const t of templates) for (let k = 0; k < PER_TEMPLATE; k++) samples.push(instantiate(t, src, "mixed", false));
  } else {
    const fillers = new Map(locales.map((l) => [l.locale, fillerFor(l)]));
    for (const t of templates)
      for (const l of locales) for (let k = 0; k < FILLS_PER_LOCALE; k++) samples.push(instantiate(t, fillers.get(l.locale)!, l.locale, l.streetFirst ?? false));
  }
  return samples;
}

type FilledSlot = Slot & { start: number; end: number };

function instantiate(template: string, src: Filler, locale: string, streetFirst: boolean): Sample {
  let body = template.replace(/\\n/g, "\n").replace(/\\,/g, ",");
  // Where the house number follows the street name, templates are read that way round.
  if (streetFirst) body = body.replace(/\{\{building_number\}\} \{\{street_name\}\}/g, "{{street_name}} {{building_number}}");
  const parts = body.split(/(\{\{?[a-z_]+\}\}?)/);
  let text = "";
  const slots: FilledSlot[] = [];
  for (const p of parts) {
    const m = /^\{\{?([a-z_]+)\}\}?$/.exec(p);
    if (!m) {
      text += p;
      continue;
    }
    const s = fill(m[1], src);
    slots.push({ ...s, start: text.length, end: text.length + s.value.length });
    text += s.value;
  }
  const gold: Sample["gold"] = [];
  const ignore: Sample["ignore"] = [];
  for (const s of slots) if (s.gold) gold.push({ start: s.start, end: s.end, type: s.gold, locale: s.locale });
  addAddressComponents(slots, text, gold, ignore);
  return { text, locale, gold, ignore };
}

/**
 * Address components next to each other (only spaces, commas, newlines and
 * quote marks between them) form one address when they hold a street line
 * (a house number and a street name, in either order); the components before
 * the street line, and components without one, are "don't care".
 */
function addAddressComponents(slots: FilledSlot[], text: string, gold: Sample["gold"], ignore: Sample["ignore"]): void {
  let i = 0;
  while (i < slots.length) {
    if (!slots[i].part) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < slots.length && slots[j + 1].part && /^[\s,>?]*$/.test(text.slice(slots[j].end, slots[j + 1].start))) j++;
    const group = slots.slice(i, j + 1);
    const first = group.findIndex(
      (g, k) => (g.part === "building_number" && group[k + 1]?.part === "street_name") || (g.part === "street_name" && group[k + 1]?.part === "building_number"),
    );
    const start = group[0].start;
    const end = group[group.length - 1].end;
    if (first >= 0) {
      gold.push({ start: group[first].start, end, type: "pii/address" });
      if (first > 0) ignore.push({ start, end: group[first].start, types: ["pii/address"] });
    } else {
      ignore.push({ start, end, types: ["pii/address"] });
    }
    i = j + 1;
  }
  // Template text after a street name ("{{street_name}} St.") belongs to it.
  for (const s of slots) if (s.part === "street_name") ignore.push({ start: s.start, end: Math.min(text.length, s.end + 4), types: ["pii/address"] });
}
