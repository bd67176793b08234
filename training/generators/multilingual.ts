// Prompt attacks and everyday requests in nineteen languages besides English
// (../phrases/attacks-multilingual.json). The corpora's attacks are almost
// all English, so without these the model has no evidence that an override
// written in Chinese or German is an attack, and the language gate rightly
// refuses to score those languages. Each attack also appears after an
// everyday request of its language (an override hidden behind a normal
// question), and the everyday requests appear alone and in pairs, so each
// language has well over the evidence the gate asks for on both sides.
import { readFileSync } from "node:fs";
import { pick, type Rng } from "../prng.js";
import type { GeneratedText } from "./prompts.js";

interface LanguageTable {
  attacks: string[];
  goals: string[];
  benign: string[];
}

const tables = JSON.parse(readFileSync(new URL("../phrases/attacks-multilingual.json", import.meta.url), "utf8")) as {
  languages: Record<string, LanguageTable>;
};

/** Languages written without spaces between sentences. */
const NO_SPACE = new Set(["zh", "ja", "th"]);

export function generateMultilingualPromptData(r: Rng): GeneratedText[] {
  const out: GeneratedText[] = [];
  for (const [lang, t] of Object.entries(tables.languages)) {
    const join = NO_SPACE.has(lang) ? "" : " ";
    t.attacks.forEach((template, i) => {
      for (const goal of t.goals) {
        const attack = template.replace("{goal}", goal);
        const group = `gen:ml-attack:${lang}:${i}`;
        out.push({ text: attack, label: 1, group, location: "user::content", kind: `ml_attack_${lang}` });
        out.push({ text: pick(r, t.benign) + join + attack, label: 1, group, location: "user::content", kind: `ml_attack_${lang}` });
      }
    });
    t.benign.forEach((b, i) => {
      const group = `gen:ml-benign:${lang}:${i}`;
      out.push({ text: b, label: 0, group, location: "user::content", kind: `ml_benign_${lang}` });
      for (const other of t.benign) if (other !== b) out.push({ text: b + join + other, label: 0, group, location: "user::content", kind: `ml_benign_${lang}` });
    });
  }
  return out;
}
