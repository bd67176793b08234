// Llama Guard 3 and 4 (docs/judges.md#llama-guard): the model's chat template,
// which the server applies, writes the task, the S1-S14 category list and the
// answer instructions around the conversation, and judges its last message
// (User for a prompt, Agent for an answer). Parapet therefore sends the
// conversation as plain chat messages, never a prompt of its own: a prompt
// rendered here would be wrapped in the template a second time. The categories
// stay the template's defaults, since only some servers pass template variables
// and only some Llama Guard templates read them; Parapet keeps the categories
// it maps and reports the others.
import { firstWord, MalformedAnswer, probabilityAt, turnMessages, type ChatAnswer, type JudgeCategory, type JudgeFormat } from "../format.js";

const violence = "moderated_content/violence";
const crime = "moderated_content/crime";
const sexual = "moderated_content/sexual";

/** The MLCommons hazard categories both versions answer in (Llama Guard 4 renames S3, S4 and S11 slightly). */
const CATEGORIES: readonly JudgeCategory[] = [
  { id: "S1", name: "Violent Crimes", detectors: [violence] },
  { id: "S2", name: "Non-Violent Crimes", detectors: [crime] },
  { id: "S3", name: "Sex-Related Crimes", detectors: [crime, sexual] },
  { id: "S4", name: "Child Sexual Exploitation", detectors: [sexual, crime] },
  { id: "S5", name: "Defamation", detectors: [] },
  { id: "S6", name: "Specialized Advice", detectors: [] },
  { id: "S7", name: "Privacy", detectors: [] },
  { id: "S8", name: "Intellectual Property", detectors: [] },
  { id: "S9", name: "Indiscriminate Weapons", detectors: ["moderated_content/weapons"] },
  { id: "S10", name: "Hate", detectors: ["moderated_content/hate"] },
  { id: "S11", name: "Suicide & Self-Harm", detectors: ["moderated_content/self_harm"] },
  { id: "S12", name: "Sexual Content", detectors: [sexual] },
  { id: "S13", name: "Elections", detectors: [] },
  { id: "S14", name: "Code Interpreter Abuse", detectors: ["tool_risk/payload"] },
];

const ALL = CATEGORIES.map((c) => c.id);

/** `safe`, or `unsafe` and on the next line the violated categories, comma-separated. */
function parse(answer: ChatAnswer): { unsafe: boolean; flagged: string[]; probability?: number } {
  const { word, offset } = firstWord(answer.content);
  const verdict = word.toLowerCase().replace(/[.,:]+$/, "");
  if (verdict !== "safe" && verdict !== "unsafe") throw new MalformedAnswer("Llama Guard answers 'safe' or 'unsafe' on its first line", answer.content);
  const probability = probabilityAt(answer, offset, "unsafe", "safe");
  if (verdict === "safe") return { unsafe: false, flagged: [], probability };
  const rest = answer.content.slice(offset + word.length);
  const flagged = [...rest.matchAll(/\bS(\d{1,2})\b/gi)].map((m) => `S${Number(m[1])}`);
  return { unsafe: true, flagged: [...new Set(flagged)], probability };
}

function llamaGuard(version: 3 | 4): JudgeFormat {
  return {
    categories: CATEGORIES,
    calls(turn, wanted) {
      if (!CATEGORIES.some((c) => c.detectors.some((d) => wanted.has(d)))) return [];
      // Llama Guard 4's template reads typed content parts (it is multimodal); Llama Guard 3's a string.
      const messages = version === 4 ? turnMessages(turn, (text) => [{ type: "text", text }]) : turnMessages(turn);
      return [{ messages, maxTokens: 20, covers: ALL }];
    },
    parse,
  };
}

export const llamaGuard3 = llamaGuard(3);
export const llamaGuard4 = llamaGuard(4);
