// Granite Guardian (docs/judges.md#granite-guardian): one risk per call, named
// in the `guardian_config` template variable its chat template reads (the
// template writes the risk's definition, the conversation and the question), and
// answered Yes (risky) or No; 3.3 answers `<score> yes </score>`, after a
// `<think>` block in its thinking mode. The probability is P(Yes) against P(No)
// at the answer token, as the model card's example computes it.
import { firstWord, MalformedAnswer, probabilityAt, turnMessages, wantedCategories, type ChatAnswer, type JudgeCategory, type JudgeFormat } from "../format.js";

/** The risk names of the model card; the umbrella `harm`, the RAG and function-call risks have no detector of their own. */
const RISKS: readonly JudgeCategory[] = [
  { id: "harm", name: "Harm", detectors: [] },
  { id: "social_bias", name: "Social Bias", detectors: ["moderated_content/hate"] },
  { id: "jailbreak", name: "Jailbreaking", detectors: ["prompt_attack"] },
  { id: "violence", name: "Violence", detectors: ["moderated_content/violence"] },
  { id: "profanity", name: "Profanity", detectors: ["moderated_content/profanity"] },
  { id: "sexual_content", name: "Sexual Content", detectors: ["moderated_content/sexual"] },
  { id: "unethical_behavior", name: "Unethical Behavior", detectors: ["moderated_content/crime"] },
  { id: "harm_engagement", name: "Harm Engagement", detectors: [] },
  { id: "evasiveness", name: "Evasiveness", detectors: [] },
  { id: "function_call", name: "Function Calling Hallucination", detectors: [] },
];

/** Where the Yes or No is in the answer. */
function verdictOf(content: string): { verdict: string; offset: number } {
  const afterThinking = content.lastIndexOf("</think>");
  const from = afterThinking >= 0 ? afterThinking + "</think>".length : 0;
  const score = /<score>\s*(\w+)\s*<\/score>/i.exec(content.slice(from));
  if (score) return { verdict: score[1].toLowerCase(), offset: from + score.index + score[0].indexOf(score[1]) };
  const { word, offset } = firstWord(content.slice(from));
  return { verdict: word.toLowerCase().replace(/[^a-z]+$/, ""), offset: from + offset };
}

export const graniteGuardian: JudgeFormat = {
  categories: RISKS,
  calls(turn, wanted) {
    return wantedCategories(RISKS, wanted).map((r) => ({
      messages: turnMessages(turn),
      templateKwargs: { guardian_config: { risk_name: r.id } },
      maxTokens: 20,
      covers: [r.id],
    }));
  },
  parse(answer: ChatAnswer, call) {
    const { verdict, offset } = verdictOf(answer.content);
    if (verdict !== "yes" && verdict !== "no") throw new MalformedAnswer("Granite Guardian answers 'Yes' or 'No'", answer.content);
    return { unsafe: verdict === "yes", flagged: verdict === "yes" ? [...call.covers] : [], probability: probabilityAt(answer, offset, "yes", "no") };
  },
};
