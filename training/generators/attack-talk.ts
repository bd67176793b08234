// Talk about prompt attacks, as negatives for prompt_attack: people who ask how to detect, mitigate, explain,
// test or teach an attack, in nine languages, often quoting an override as an example; translation requests
// whose text holds an override or a warning about one; service messages with polite imperatives ("quote your
// case ID when you call us back"), a user's standing requests about form ("from now on, use metric units"); everyday uses of "instructions", "ignore", "agent", "system prompt"; and
// clean contract clauses whose wording supersedes or revokes earlier instructions. The generated negatives of
// indirect.ts were a few fixed sentences: the head learned them and still scored "instructions", "system
// prompt" or "agent" high elsewhere. Here every row is composed from independent parts (a topic, a frame, a
// quoted example, quote marks, a language), so what the head can learn is the shape — asking about an attack,
// or quoting one, is not giving one — rather than sentences. Phrases in ../phrases/attack-talk.json; `group` is
// the frame, so a frame lands wholly in one split.
import { readFileSync } from "node:fs";
import { pick, type Rng } from "../prng.js";
import type { GeneratedText } from "./prompts.js";

interface TalkLanguage {
  topics: string[];
  /** Slots of the incident-report frames ({team}, {finding}), where the language has them. */
  team?: string[];
  /** Talk framing before an override given to the model itself, unquoted: the contrast positives. */
  pretexts: string[];
  /** What an English override given that way demands next. */
  demands?: string[];
  finding?: string[];
  asks: string[];
  examples: string[];
  translation?: string[];
  sentences?: string[];
  targets?: string[];
}

interface ServiceLanguage {
  frames: string[];
  ref: string[];
  when: string[];
  verb?: string[];
}

interface AttackTalkTables {
  quotes: [string, string][];
  languages: Record<string, TalkLanguage>;
  service: Record<string, ServiceLanguage>;
  everyday: string[];
  legal: Record<string, string[]>;
  preferences: Record<string, { openers: string[]; prefs: string[]; tails: string[] }>;
}

/** The phrase tables. Their order is part of the generated data: the PRNG picks by index. */
const tables = JSON.parse(readFileSync(new URL("../phrases/attack-talk.json", import.meta.url), "utf8")) as AttackTalkTables;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const number = (r: Rng, from: number, span: number) => String(from + Math.floor(r() * span));

/** A quoted example: an override of the language (or English, as people quote it) between quote marks of any kind. */
function quoted(r: Rng, t: TalkLanguage): string {
  const [open, close] = pick(r, tables.quotes);
  const example = r() < 0.75 ? pick(r, t.examples) : pick(r, tables.languages.en.examples);
  return open + example + close;
}

/** The group names this generator writes (`gen:<name>:...`). */
export const ATTACK_TALK_GROUPS = ["attacktalk", "talkattack", "translatetalk", "preference", "service", "everydaywords", "legal"] as const;

export function generateAttackTalk(r: Rng, n = 1): GeneratedText[] {
  const out: GeneratedText[] = [];
  const push = (text: string, group: string, kind: string, tool = 0) =>
    out.push({ text, label: 0, group, location: r() < tool ? "tool::content" : "user::content", kind });
  for (const [lang, t] of Object.entries(tables.languages)) {
    const perFrame = Math.round((lang === "en" ? 8 : 10) * n);
    t.asks.forEach((ask, f) => {
      for (let k = 0; k < perFrame; k++) {
        const topic = pick(r, t.topics);
        const text = ask
          .replace("{Topic}", capitalize(topic))
          .replace("{topic}", topic)
          .replace("{example}", () => quoted(r, t))
          .replace("{team}", () => pick(r, t.team ?? []))
          .replace("{finding}", () => pick(r, t.finding ?? []));
        push(r() < 0.3 ? capitalize(text) : text, `gen:attacktalk:${lang}:${f}`, "attack_talk");
      }
    });
    // The contrast: the same framing, the override given to the model rather than quoted or asked about.
    t.pretexts.forEach((pretext, f) => {
      for (let k = 0; k < 24 * n; k++) {
        const example = pick(r, t.examples) + (t.demands ? pick(r, t.demands) : "");
        const space = lang === "zh" || lang === "ja" ? "" : " ";
        out.push({
          text: `${pretext}${space}${r() < 0.5 ? capitalize(example) : example}.`,
          label: 1,
          group: `gen:talkattack:${lang}:${f}`,
          location: "user::content",
          kind: "attack_in_talk",
        });
      }
    });
    (t.translation ?? []).forEach((frame, f) => {
      for (let k = 0; k < 10 * n; k++) {
        const [open, close] = pick(r, tables.quotes);
        const sentence = open + pick(r, t.sentences ?? []) + close;
        push(
          frame.replace("{target}", pick(r, t.targets ?? [])).replace("{example_sentence}", () => sentence),
          `gen:translatetalk:${lang}:${f}`,
          "translation_request",
        );
      }
    });
  }
  // A user's standing requests about form, opened the way overrides open: what follows decides, not "from now on".
  for (const [lang, p] of Object.entries(tables.preferences)) {
    p.openers.forEach((opener, f) => {
      for (let k = 0; k < 8 * n; k++) {
        const space = lang === "zh" || lang === "ja" ? "" : " ";
        push(opener + space + pick(r, p.prefs) + pick(r, p.tails), `gen:preference:${lang}:${f}`, "polite_imperative");
      }
    });
  }
  // Service messages come as e-mails relayed by tools as often as typed: both locations.
  for (const [lang, s] of Object.entries(tables.service)) {
    s.frames.forEach((frame, f) => {
      for (let k = 0; k < 12 * n; k++) {
        const text = frame
          .replace("{verb}", () => (s.verb ? pick(r, s.verb) : ""))
          .replace("{ref}", () => pick(r, s.ref))
          .replace("{ref_id}", () => `${pick(r, ["#", "", "C-", "REF-"])}${number(r, 10000, 89999)}`)
          .replace("{when}", () => pick(r, s.when));
        push(text, `gen:service:${lang}:${f}`, "polite_imperative", 0.4);
      }
    });
  }
  tables.everyday.forEach((text, f) => push(text, `gen:everydaywords:${f}`, "benign_chat"));
  for (const [lang, clauses] of Object.entries(tables.legal)) {
    clauses.forEach((clause, f) => {
      for (let k = 0; k < 12 * n; k++)
        push(
          clause.replace("{n}", () => number(r, 2, 30)),
          `gen:legal:${lang}:${f}`,
          "document",
          0.6,
        );
    });
  }
  return out;
}
