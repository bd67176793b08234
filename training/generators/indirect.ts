// Indirect injections as agents meet them: tool results and documents (API
// JSON, issue and pull-request comments, e-mails, meeting notes, résumés,
// calendar invites, contracts, web pages) in nine languages, carrying a
// sentence addressed to the AI that reads them and asking it to act (call a
// destructive tool, grant access, move money, hide a clause, rank a candidate,
// publish a calendar, exfiltrate through a link). The same containers come
// clean and with instructions addressed to people ("reviewers: approve after
// CI passes", "pay the invoice by Friday"), so that what the model learns is
// the addressee and the act, not the container or the verb. Beside them,
// user-side hard negatives: people who discuss or quote attacks (red teams,
// talks, explanations, translation requests), polite self-corrections and
// style preferences ("ignore my last message", "from here on use ..."),
// messages with suspicious links (a bad link is unknown_links' job), and
// users addressing the assistant directly. Phrases in
// ../phrases/indirect.json; `group` is the frame or template, so a frame
// lands wholly in one split.
import { readFileSync } from "node:fs";
import { pick, type Rng } from "../prng.js";
import type { GeneratedText } from "./prompts.js";

type Slots = Record<string, readonly string[]>;

interface LanguageTable {
  addressees: string[];
  frames: string[];
  actions: string[];
  secrecy: string[];
  docs?: string[];
  human: string[];
  filler: string[];
}

/** Instructions about the reader's own answer (no addressee): what it must say, link, leave out, run. */
interface AnswerTable {
  frames: string[];
  human: string[];
  [slot: string]: string[];
}

interface IndirectTables {
  slots: Slots;
  answer: Record<string, AnswerTable>;
  containers: string[];
  titles: string[];
  languages: Record<string, LanguageTable>;
  user: {
    quotes: string[];
    defenders: string[];
    translation: string[];
    polite: string[];
    variety: string[];
    links: string[];
    phish: string[];
    vocative: string[];
    persona: Record<"openers" | "role" | "rules" | "tasks" | "lang", string[]>;
    spec: Record<string, string[]>;
  };
}

/** The phrase tables. Their order is part of the generated data: the PRNG picks by index. */
const tables = JSON.parse(readFileSync(new URL("../phrases/indirect.json", import.meta.url), "utf8")) as IndirectTables;

/** Languages written without spaces between sentences. */
const NO_SPACE = new Set(["zh", "ja"]);

function fillSlots(r: Rng, template: string, slots: Slots): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (slots[k] ? pick(r, slots[k]) : m));
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A container with `body` in it; JSON containers get the body escaped as a JSON string. */
function contain(r: Rng, body: string): string {
  const c = pick(r, tables.containers);
  const isJson = c.startsWith("{");
  const slots: Slots = {
    ...tables.slots,
    title: tables.titles,
    name2: tables.slots.name,
    date2: tables.slots.date,
    n: [String(100 + Math.floor(r() * 9000))],
    hash: [
      Math.floor(r() * 0xfffffff)
        .toString(16)
        .padStart(7, "0"),
    ],
  };
  const filled = c.replace(/\{(\w+)\}/g, (m, k: string) => (k === "body" ? m : slots[k] ? pick(r, slots[k]) : m));
  const inner = isJson ? JSON.stringify(body).slice(1, -1) : body;
  return filled.replace("{body}", () => inner);
}

/** Two or three filler sentences of the language, with the extra sentence at a random place. */
function body(r: Rng, t: LanguageTable, lang: string, extra?: string): string {
  const count = Math.min(t.filler.length, r() < 0.5 ? 3 : 2);
  const start = Math.floor(r() * t.filler.length);
  // Consecutive entries from a random start: no sentence twice.
  const sentences = Array.from({ length: count }, (_, k) => fillSlots(r, t.filler[(start + k) % t.filler.length], tables.slots));
  if (extra) sentences.splice(Math.floor(r() * (sentences.length + 1)), 0, extra);
  const join = NO_SPACE.has(lang) ? "" : r() < 0.6 ? " " : "\n";
  return sentences.join(join);
}

function injection(r: Rng, t: LanguageTable, frame: string): string {
  const addressee = pick(r, t.addressees);
  const action = fillSlots(r, pick(r, t.actions), tables.slots);
  let text = frame
    .replace("{ADDRESSEE}", addressee.toUpperCase())
    .replace("{Addressee}", capitalize(addressee))
    .replace("{addressee}", addressee)
    .replace("{doc}", t.docs ? pick(r, t.docs) : "")
    .replace("{action}", action);
  if (r() < 0.35) text += pick(r, t.secrecy);
  return text;
}

export function generateIndirectData(r: Rng, n = 1): GeneratedText[] {
  const out: GeneratedText[] = [];
  for (const [lang, t] of Object.entries(tables.languages)) {
    const perFrame = Math.round((lang === "en" ? 30 : 24) * n);
    t.frames.forEach((frame, f) => {
      for (let k = 0; k < perFrame; k++) {
        const location = r() < 0.9 ? "tool::content" : "assistant::content";
        out.push({ text: contain(r, body(r, t, lang, injection(r, t, frame))), label: 1, group: `gen:indirect:${lang}:${f}`, location, kind: "indirect_addressed" });
        // The same kind of container clean, or carrying an ordinary instruction to people.
        const human = r() < 0.6 ? fillSlots(r, pick(r, t.human), tables.slots) : undefined;
        out.push({
          text: contain(r, body(r, t, lang, human)),
          label: 0,
          group: `gen:indirectdoc:${lang}:${f}`,
          location: "tool::content",
          kind: human ? "document_human" : "document",
        });
      }
    });
    // Instructions to people alone, as short tool results (a ticket line, a chat message relayed by a tool).
    t.human.forEach((h, i) => {
      for (let k = 0; k < 4 * n; k++)
        out.push({
          text: fillSlots(r, h, tables.slots),
          label: 0,
          group: `gen:human:${lang}:${i}`,
          location: pick(r, ["tool::content", "user::content"] as const),
          kind: "document_human",
        });
    });
  }
  // Directives about the answer hidden in data, with the same containers carrying requests about a person's reply.
  for (const [lang, a] of Object.entries(tables.answer)) {
    const t = tables.languages[lang];
    const slots: Slots = { ...tables.slots, ...a };
    const perFrame = Math.round((lang === "en" ? 24 : 16) * n);
    a.frames.forEach((frame, f) => {
      for (let k = 0; k < perFrame; k++) {
        // Slots inside slots (a goal naming {domain}): filled twice.
        const directive = fillSlots(r, fillSlots(r, frame, slots), slots);
        const location = r() < 0.9 ? "tool::content" : "assistant::content";
        out.push({ text: contain(r, body(r, t, lang, directive)), label: 1, group: `gen:answerdirective:${lang}:${f}`, location, kind: "indirect_answer" });
      }
    });
    a.human.forEach((h, i) => {
      for (let k = 0; k < 8 * n; k++)
        out.push({
          text: contain(r, body(r, t, lang, fillSlots(r, h, tables.slots))),
          label: 0,
          group: `gen:answerhuman:${lang}:${i}`,
          location: "tool::content",
          kind: "document_human",
        });
    });
  }
  userNegatives(r, n, out);
  return out;
}

/** User-side negatives: attack talk, translation, self-corrections, links, vocatives, role and task prompts. */
function userNegatives(r: Rng, n: number, out: GeneratedText[]): void {
  const u = tables.user;
  const userSlots: Slots = { ...tables.slots, quote: u.quotes, variety: u.variety, phish: u.phish };
  const userRows = (list: string[], name: string, count: number, tool = 0) =>
    list.forEach((template, i) => {
      for (let k = 0; k < count * n; k++) {
        const location = r() < tool ? "tool::content" : "user::content";
        out.push({ text: fillSlots(r, template, userSlots), label: 0, group: `gen:${name}:${i}`, location, kind: name });
      }
    });
  userRows(u.defenders, "defender", 8);
  userRows(u.translation, "translation_request", 3);
  userRows(u.polite, "polite_imperative", 4);
  userRows(u.links, "message_with_link", 6, 0.4);
  userRows(u.vocative, "user_vocative", 4);
  // Role prompts people write for their own assistant: a persona with house rules, no rule taken away.
  const p = u.persona;
  p.openers.forEach((opener, i) => {
    for (let k = 0; k < 10 * n; k++) {
      const rules = [pick(r, p.rules), pick(r, p.rules)].filter((x, j, all) => all.indexOf(x) === j);
      const text = [fillSlots(r, opener, p), ...rules.map((x) => fillSlots(r, x, p)), pick(r, p.tasks)].join(r() < 0.5 ? " " : "\n");
      out.push({ text, label: 0, group: `gen:persona:${i}`, location: "user::content", kind: "persona_prompt" });
    }
  });
  // Long structured task prompts (a role, a task, rules, an output format): what people paste from their
  // prompt libraries, and what a model that learned "instructions with structure = attack" flags.
  const sp = u.spec;
  sp.roles.forEach((role, i) => {
    for (let k = 0; k < 40 * n; k++) {
      const rules = [pick(r, sp.rules), pick(r, sp.rules), pick(r, sp.rules)].filter((x, j, all) => all.indexOf(x) === j);
      const parts = [pick(r, sp.heads) + role, pick(r, sp.taskHeads) + pick(r, sp.tasks), pick(r, sp.ruleHeads) + rules.join("\n")];
      if (r() < 0.6) parts.push(pick(r, sp.outputHeads) + pick(r, sp.outputs));
      out.push({ text: fillSlots(r, parts.join("\n"), sp), label: 0, group: `gen:taskspec:${i}`, location: "user::content", kind: "task_spec" });
    }
  });
}
