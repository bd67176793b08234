// A user's task about a text they paste, as negatives for prompt_attack: summarise it, extract an answer, judge
// its tone, write exam questions, check a proposed answer, turn requirements into stories; and prompts that set
// out a process to follow before answering. Chat apps see these all day, and they share the shape of an
// injected agent task (a task, then a text that says what must be done), so a head that saw few of them
// flagged NLP task templates and long task prompts of families it never saw (T0, Arena-Hard). The pasted
// texts carry the everyday words that also occur in attacks ("instructions", "ignore the red light", "do not
// trust", "the system shall"). Phrases in ../phrases/pasted-tasks.json and indirect.json's filler sentences;
// `group` is the task, so a task lands wholly in one split.
import { readFileSync } from "node:fs";
import { pick, type Rng } from "../prng.js";
import type { GeneratedText } from "./prompts.js";

interface PastedTables {
  tasks: Record<string, string[]>;
  question: string[];
  answer: string[];
  pools: Record<string, string[]>;
  adj: string[];
  separators: string[];
  process: { openers: string[]; steps: string[]; questions: string[] };
}

/** The phrase tables. Their order is part of the generated data: the PRNG picks by index. */
const tables = JSON.parse(readFileSync(new URL("../phrases/pasted-tasks.json", import.meta.url), "utf8")) as PastedTables;
const fillers = (JSON.parse(readFileSync(new URL("../phrases/indirect.json", import.meta.url), "utf8")) as { languages: Record<string, { filler: string[] }> }).languages;

/** Two to four sentences from one pool, starting at a random place, slots filled. */
function passage(r: Rng, pool: readonly string[]): string {
  const count = 2 + Math.floor(r() * 3);
  const start = Math.floor(r() * pool.length);
  return Array.from({ length: Math.min(count, pool.length) }, (_, k) => pool[(start + k) % pool.length])
    .join(" ")
    .replace(/\{adj\}/g, () => pick(r, tables.adj))
    .replace(/\{\w+\}/g, () => pick(r, tables.adj));
}

/** The group names this generator writes (`gen:<name>:...`). */
export const PASTED_TASK_GROUPS = ["pastedtask", "process"] as const;

export function generatePastedTasks(r: Rng, n = 1): GeneratedText[] {
  const out: GeneratedText[] = [];
  for (const [lang, tasks] of Object.entries(tables.tasks)) {
    const pools = lang === "en" ? Object.values(tables.pools) : [fillers[lang].filler];
    tasks.forEach((task, f) => {
      for (let k = 0; k < (lang === "en" ? 10 : 6) * n; k++) {
        const t = task.replace("{question}", () => pick(r, tables.question)).replace("{answer}", () => pick(r, tables.answer));
        const text = passage(r, pick(r, pools)).replace(/\{\w+\}/g, "");
        const sep = pick(r, tables.separators);
        out.push({ text: r() < 0.5 ? t + sep + text : text + sep + t, label: 0, group: `gen:pastedtask:${lang}:${f}`, location: "user::content", kind: "pasted_task" });
      }
    });
  }
  const p = tables.process;
  p.openers.forEach((opener, f) => {
    for (let k = 0; k < 10 * n; k++) {
      const steps = [0, 1, 2, 3].map(() => pick(r, p.steps)).filter((x, j, all) => all.indexOf(x) === j);
      const text = [opener, ...steps.map((s, j) => `${j + 1}. ${s}`), "", `Question: ${pick(r, p.questions)}`].join("\n");
      out.push({ text, label: 0, group: `gen:process:${f}`, location: "user::content", kind: "task_spec" });
    }
  });
  return out;
}
