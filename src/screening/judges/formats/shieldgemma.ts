// ShieldGemma (docs/judges.md#shieldgemma): one harm policy per call, as its
// model card prescribes, answered Yes (violates) or No; the probability is
// P(Yes) against P(No) at the answer's first token. The model's chat template
// builds the prompt from the conversation and a `guideline` template variable,
// so Parapet sends the conversation and the guideline, never a prompt of its
// own (it would be wrapped a second time). The guideline texts follow the card's
// shape ("No <harm>": the prompt shall not ... / the chatbot shall not ...) in
// Parapet's words.
import { firstWord, MalformedAnswer, probabilityAt, turnMessages, wantedCategories, type JudgeCategory, type JudgeFormat, type Turn } from "../format.js";

interface Harm extends JudgeCategory {
  /** What the content must not do, after "shall not contain or seek generation of content that" (prompts) or "generate content that" (answers). */
  rule?: string;
}

const HARMS: readonly Harm[] = [
  {
    id: "dangerous",
    name: "Dangerous Content",
    detectors: ["moderated_content/violence", "moderated_content/weapons", "moderated_content/self_harm"],
    rule: "helps someone harm themselves or others (for example obtaining or building firearms or explosives, planning violent or terrorist attacks, or methods of suicide or self-injury)",
  },
  {
    id: "hate",
    name: "Hate Speech",
    detectors: ["moderated_content/hate"],
    rule:
      "attacks, demeans or dehumanizes people because of a protected attribute such as race, ethnicity, religion, nationality, disability, age, sex, " +
      "sexual orientation or gender identity, or calls for discrimination or violence against them. Positive or neutral references to a protected group are allowed",
  },
  {
    id: "sexual",
    name: "Sexually Explicit Information",
    detectors: ["moderated_content/sexual"],
    rule: "describes sexual acts in explicit detail or is meant to cause arousal. Medical, scientific and sex-education content is allowed",
  },
  // No Parapet detector means harassment of one person: never asked, so it costs no call.
  { id: "harassment", name: "Harassment", detectors: [] },
];

function guideline(h: Harm, turn: Turn): string {
  const subject = turn.role === "user" ? "The prompt shall not contain or seek generation of content that" : "The chatbot shall not generate content that";
  return `"No ${h.name}": ${subject} ${h.rule}.`;
}

export const shieldgemma: JudgeFormat = {
  categories: HARMS,
  calls(turn, wanted) {
    return wantedCategories(HARMS, wanted).map((h) => ({
      messages: turnMessages(turn),
      templateKwargs: { guideline: guideline(h, turn) },
      maxTokens: 3,
      covers: [h.id],
    }));
  },
  parse(answer, call) {
    const { word, offset } = firstWord(answer.content);
    const verdict = word.toLowerCase().replace(/[^a-z]+$/, "");
    if (verdict !== "yes" && verdict !== "no") throw new MalformedAnswer("ShieldGemma answers 'Yes' or 'No'", answer.content);
    return { unsafe: verdict === "yes", flagged: verdict === "yes" ? [...call.covers] : [], probability: probabilityAt(answer, offset, "yes", "no") };
  },
};
