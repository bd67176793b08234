// What every judge format has in common (docs/judges.md#formats): a turn of the
// conversation goes in, one or more chat-completion calls go out, each answer
// comes back as a verdict over the format's categories. The formats differ only
// in the table they are built from: which categories the model answers in,
// which Parapet detectors each maps to, how a call is worded and how an answer
// is read.

/** One turn to judge: a user prompt, or an agent's answer (a message or a tool call) with the prompt it answers. */
export interface Turn {
  role: "user" | "agent";
  text: string;
  /** For an agent turn: the nearest user message before it, the context every format's model card asks for. */
  prompt?: string;
}

/** A chat message as the OpenAI-compatible API takes it. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string | { type: "text"; text: string }[];
}

/** One call's request body, less the fields every call shares (model, temperature, logprobs). */
export interface CallSpec {
  messages: ChatMessage[];
  /** Variables for the server's chat template (vLLM, SGLang, llama.cpp with --jinja): ShieldGemma's guideline, Granite Guardian's risk. */
  templateKwargs?: Record<string, unknown>;
  /** The answer needs only a few tokens; reasoning models are left uncapped. */
  maxTokens?: number;
  /** The format's category ids this call can flag. */
  covers: readonly string[];
}

/** The parts of a chat-completion answer a format reads. */
export interface ChatAnswer {
  /** The final answer (for reasoning models, without the reasoning). */
  content: string;
  /** Per generated token: its text and the most likely alternatives at that position. */
  logprobs?: { token: string; logprob: number; top: { token: string; logprob: number }[] }[];
}

export interface CallVerdict {
  unsafe: boolean;
  /** Category ids (of the call's `covers`, or others the model named) the answer flags. */
  flagged: string[];
  /** The model's probability of its unsafe answer (Yes, unsafe, 1), when the server returned logprobs. */
  probability?: number;
}

/**
 * An answer the format cannot read: counted and logged as an error, and the
 * judge is skipped. The message says what was expected and how long the answer
 * was, never what it said: the log carries no screened content, and an answer
 * may repeat it (the head is kept apart for debug logging).
 */
export class MalformedAnswer extends Error {
  readonly head: string;
  constructor(what: string, content: string) {
    super(`${what}; got ${content.length} characters`);
    this.name = "MalformedAnswer";
    this.head = content.slice(0, 80);
  }
}

export interface JudgeCategory {
  /** How the model names it in answers (S1, dangerous, jailbreak, hate...). */
  id: string;
  /** Its name in the model card. */
  name: string;
  /** Parapet detector types it maps to; none: reported in dev_info, never a detection. */
  detectors: readonly string[];
}

export interface JudgeFormat {
  categories: readonly JudgeCategory[];
  /** The calls that judge `turn` for the categories whose detectors are in `wanted`. */
  calls(turn: Turn, wanted: ReadonlySet<string>): CallSpec[];
  /** Reads one call's answer; throws MalformedAnswer. */
  parse(answer: ChatAnswer, call: CallSpec): CallVerdict;
  /** The call that judges `turn` against a custom guardrail written in words (gpt-oss-safeguard only). */
  guardrailCall?(turn: Turn, policy: string): CallSpec;
}

/** The categories a call must be made for: those mapped to a wanted detector. */
export function wantedCategories(categories: readonly JudgeCategory[], wanted: ReadonlySet<string>): JudgeCategory[] {
  return categories.filter((c) => c.detectors.some((d) => wanted.has(d)));
}

/** The conversation a chat-template format sends: the prompt alone, or the prompt then the answer being judged. */
export function turnMessages(turn: Turn, content: (text: string) => ChatMessage["content"] = (t) => t): ChatMessage[] {
  if (turn.role === "user") return [{ role: "user", content: content(turn.text) }];
  // The templates require the conversation to open with a user message; an answer with no prompt before it gets an empty one.
  return [
    { role: "user", content: content(turn.prompt ?? "") },
    { role: "assistant", content: content(turn.text) },
  ];
}

/**
 * The probability of the `positive` word at the answer's character `offset`
 * (where the verdict word starts in `content`), from the alternatives the
 * server listed at that token: positive / (positive + negative), as the model
 * cards compute it from the two tokens' logits. The logprobs may cover
 * reasoning before the answer, so the answer is found at their end. Undefined
 * when the server sent no logprobs or neither word is among the alternatives.
 */
export function probabilityAt(answer: ChatAnswer, offset: number, positive: string, negative: string): number | undefined {
  const tokens = answer.logprobs;
  if (!tokens?.length) return undefined;
  const text = tokens.map((t) => t.token).join("");
  const start = text.length - answer.content.length;
  if (start < 0 || text.slice(start) !== answer.content) return undefined;
  let at = start + offset;
  let index = -1;
  for (let i = 0, pos = 0; i < tokens.length; pos += tokens[i].token.length, i++) {
    if (at < pos + tokens[i].token.length) {
      index = i;
      break;
    }
  }
  if (index < 0) return undefined;
  // A token that is only the verdict's leading whitespace: the verdict is the next one.
  while (index < tokens.length - 1 && tokens[index].token.trim() === "") index++;
  at = index;
  const alternatives = tokens[at].top.length ? tokens[at].top : [tokens[at]];
  let pos = 0;
  let neg = 0;
  const p = positive.toLowerCase();
  const n = negative.toLowerCase();
  for (const alt of alternatives) {
    const word = alt.token.trim().toLowerCase();
    if (!word) continue;
    // A token may be the word or its start ("un" of "unsafe"); one that starts both says nothing.
    const isPos = p.startsWith(word);
    const isNeg = n.startsWith(word);
    if (isPos === isNeg) continue;
    if (isPos) pos += Math.exp(alt.logprob);
    else neg += Math.exp(alt.logprob);
  }
  return pos + neg > 0 ? pos / (pos + neg) : undefined;
}

/** The first word of the answer (after whitespace) and where it starts. */
export function firstWord(content: string): { word: string; offset: number } {
  const m = /\S+/.exec(content);
  return m ? { word: m[0], offset: m.index } : { word: "", offset: 0 };
}
