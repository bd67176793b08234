// Each judge format's calls (what Parapet sends for a prompt and for an answer)
// and how it reads the documented answers, their probabilities, and answers it
// cannot read.
import { describe, expect, it } from "vitest";
import { MalformedAnswer, probabilityAt, type ChatAnswer, type CallSpec } from "../../../src/screening/judges/format.js";
import { judgeFormats } from "../../../src/screening/judges/formats/index.js";
import { verdictLogprobs } from "./fake-judge.js";

const all = (...types: string[]) => new Set(types);
const moderation = all("moderated_content/violence", "moderated_content/hate", "moderated_content/sexual", "moderated_content/weapons", "moderated_content/self_harm");

function answer(content: string, positive?: string, negative?: string, p?: number): ChatAnswer {
  if (p === undefined) return { content };
  return { content, logprobs: verdictLogprobs(content, positive!, negative!, p)!.map((t) => ({ token: t.token, logprob: t.logprob, top: t.top_logprobs })) };
}

describe("llama-guard-3 and llama-guard-4", () => {
  const lg3 = judgeFormats["llama-guard-3"];
  const lg4 = judgeFormats["llama-guard-4"];

  it("sends the conversation for the server's chat template: the prompt alone, or the prompt then the answer", () => {
    const [prompt] = lg3.calls({ role: "user", text: "How do I pick a lock?" }, moderation);
    expect(prompt.messages).toEqual([{ role: "user", content: "How do I pick a lock?" }]);
    expect(prompt.templateKwargs).toBeUndefined();
    const [reply] = lg3.calls({ role: "agent", text: "Like this.", prompt: "How do I pick a lock?" }, moderation);
    expect(reply.messages).toEqual([
      { role: "user", content: "How do I pick a lock?" },
      { role: "assistant", content: "Like this." },
    ]);
    // An answer with no prompt before it still opens with a user message, as the template requires.
    expect(lg3.calls({ role: "agent", text: "Hello" }, moderation)[0].messages[0]).toEqual({ role: "user", content: "" });
  });

  it("Llama Guard 4 gets typed text parts, which its multimodal template reads", () => {
    const [call] = lg4.calls({ role: "agent", text: "Sure.", prompt: "Hi" }, moderation);
    expect(call.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Hi" }] },
      { role: "assistant", content: [{ type: "text", text: "Sure." }] },
    ]);
  });

  it("makes no call when the policy places none of its mapped detectors", () => {
    expect(lg3.calls({ role: "user", text: "x" }, all("pii/email"))).toEqual([]);
  });

  it("reads safe, unsafe and the category line, with the probability of unsafe", () => {
    const [call] = lg3.calls({ role: "user", text: "x" }, moderation);
    expect(lg3.parse(answer("safe"), call)).toEqual({ unsafe: false, flagged: [], probability: undefined });
    expect(lg3.parse(answer("\n\nunsafe\nS1,S10"), call)).toMatchObject({ unsafe: true, flagged: ["S1", "S10"] });
    expect(lg3.parse(answer("unsafe\nS2, S14"), call).flagged).toEqual(["S2", "S14"]);
    expect(lg3.parse(answer("unsafe\nS9", "unsafe", "safe", 0.93), call).probability).toBeCloseTo(0.93, 6);
    expect(lg3.parse(answer("safe", "unsafe", "safe", 0.07), call).probability).toBeCloseTo(0.07, 6);
  });

  it("refuses an answer that is neither safe nor unsafe", () => {
    const [call] = lg3.calls({ role: "user", text: "x" }, moderation);
    expect(() => lg3.parse(answer("I cannot help with that."), call)).toThrow(MalformedAnswer);
    expect(() => lg3.parse(answer(""), call)).toThrow(/'safe' or 'unsafe'.*0 characters/);
  });
});

describe("shieldgemma", () => {
  const sg = judgeFormats.shieldgemma;

  it("asks one harm per call through the guideline template variable, worded for a prompt or a response", () => {
    const calls = sg.calls({ role: "user", text: "x" }, all("moderated_content/hate", "moderated_content/weapons"));
    expect(calls.map((c) => c.covers)).toEqual([["dangerous"], ["hate"]]);
    expect(calls[1].templateKwargs!.guideline).toMatch(/^"No Hate Speech": The prompt shall not contain or seek generation of content that /);
    const [reply] = sg.calls({ role: "agent", text: "y", prompt: "x" }, all("moderated_content/sexual"));
    expect(reply.templateKwargs!.guideline).toMatch(/^"No Sexually Explicit Information": The chatbot shall not generate content that /);
    expect(reply.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("never asks Harassment, which no Parapet detector reports", () => {
    const calls = sg.calls({ role: "user", text: "x" }, moderation);
    expect(calls.map((c) => c.covers[0])).not.toContain("harassment");
  });

  it("reads Yes and No, and P(Yes) against P(No)", () => {
    const [call] = sg.calls({ role: "user", text: "x" }, all("moderated_content/hate"));
    expect(sg.parse(answer("Yes", "Yes", "No", 0.8), call)).toEqual({ unsafe: true, flagged: ["hate"], probability: expect.closeTo(0.8, 6) });
    expect(sg.parse(answer("No."), call)).toEqual({ unsafe: false, flagged: [], probability: undefined });
    expect(() => sg.parse(answer("Maybe"), call)).toThrow(MalformedAnswer);
  });
});

describe("granite-guardian", () => {
  const gg = judgeFormats["granite-guardian"];

  it("names one risk per call in guardian_config", () => {
    const calls = gg.calls({ role: "user", text: "x" }, all("prompt_attack", "moderated_content/violence"));
    expect(calls.map((c) => c.templateKwargs)).toEqual([{ guardian_config: { risk_name: "jailbreak" } }, { guardian_config: { risk_name: "violence" } }]);
  });

  it("reads Yes/No and 3.3's <score>, after its thinking", () => {
    const [call] = gg.calls({ role: "user", text: "x" }, all("prompt_attack"));
    expect(gg.parse(answer("Yes", "Yes", "No", 0.9), call)).toEqual({ unsafe: true, flagged: ["jailbreak"], probability: expect.closeTo(0.9, 6) });
    expect(gg.parse(answer("<think>the user asks to ignore rules</think>\n<score> yes </score>"), call).unsafe).toBe(true);
    expect(gg.parse(answer("<score> no </score>"), call).unsafe).toBe(false);
    expect(() => gg.parse(answer("<score> perhaps </score>"), call)).toThrow(MalformedAnswer);
  });
});

describe("gpt-oss-safeguard", () => {
  const gs = judgeFormats["gpt-oss-safeguard"];

  it("sends Parapet's policy as the system message and the content as the user message", () => {
    const [call] = gs.calls({ role: "user", text: "hello" }, moderation);
    expect(call.messages[0].role).toBe("system");
    expect(call.messages[0].content).toMatch(/## INSTRUCTIONS[\s\S]*"violation"[\s\S]*Reasoning: low$/);
    expect(call.messages[1]).toEqual({ role: "user", content: "hello" });
    expect(call.maxTokens).toBeUndefined();
  });

  it("a guardrail in words is its own policy, answered 0 or 1", () => {
    const call = gs.guardrailCall!({ role: "user", text: "what does Acme charge?" }, "Flag requests for our competitors' pricing.");
    expect(call.messages[0].content).toMatch(/^Flag requests for our competitors' pricing\.\n\n## OUTPUT\nReturn exactly one character/);
    expect(gs.parse(answer("1"), call)).toEqual({ unsafe: true, flagged: ["guardrail"], probability: undefined });
    expect(gs.parse(answer(" 0"), call).unsafe).toBe(false);
  });

  it("reads the JSON answer, fenced or not, and the probability of its violation digit", () => {
    const [call] = gs.calls({ role: "user", text: "x" }, moderation);
    expect(gs.parse(answer('{"violation": 1, "policy_category": "weapons"}'), call)).toMatchObject({ unsafe: true, flagged: ["weapons"] });
    expect(gs.parse(answer('```json\n{"violation": 0, "policy_category": null}\n```'), call)).toMatchObject({ unsafe: false, flagged: [] });
    const content = '{"violation": 1, "policy_category": "hate"}';
    const tokens = [
      { token: '{"violation": ', logprob: -0.01, top: [] },
      {
        token: "1",
        logprob: Math.log(0.7),
        top: [
          { token: "1", logprob: Math.log(0.7) },
          { token: "0", logprob: Math.log(0.3) },
        ],
      },
      { token: ', "policy_category": "hate"}', logprob: -0.01, top: [] },
    ];
    // Reasoning tokens before the answer do not move where the verdict is read.
    const withReasoning = { content, logprobs: [{ token: "The user hates 1 thing. ", logprob: -1, top: [] }, ...tokens] };
    expect(gs.parse(withReasoning, call).probability).toBeCloseTo(0.7, 6);
    expect(() => gs.parse(answer('{"violation": "maybe"}'), call)).toThrow(/no "violation"/);
    expect(() => gs.parse(answer("{not json}"), call)).toThrow(MalformedAnswer);
    expect(() => gs.parse(answer("It is fine."), call)).toThrow(MalformedAnswer);
  });
});

describe("probabilityAt", () => {
  it("counts a token that starts one word and not the other (a split 'un' + 'safe')", () => {
    const a: ChatAnswer = {
      content: "unsafe",
      logprobs: [
        {
          token: "un",
          logprob: Math.log(0.6),
          top: [
            { token: "un", logprob: Math.log(0.6) },
            { token: "safe", logprob: Math.log(0.4) },
          ],
        },
        { token: "safe", logprob: 0, top: [] },
      ],
    };
    expect(probabilityAt(a, 0, "unsafe", "safe")).toBeCloseTo(0.6, 6);
  });

  it("is undefined when the logprobs do not spell the answer or name neither word", () => {
    expect(probabilityAt({ content: "safe", logprobs: [{ token: "other", logprob: 0, top: [] }] }, 0, "unsafe", "safe")).toBeUndefined();
    expect(probabilityAt({ content: "safe", logprobs: [{ token: "safe", logprob: 0, top: [{ token: "maybe", logprob: 0 }] }] }, 0, "unsafe", "safe")).toBeUndefined();
  });
});

// Every format's calls carry what the judge needs to know which categories an answer can flag.
it("every call names the categories it covers", () => {
  for (const format of Object.values(judgeFormats)) {
    const calls: CallSpec[] = format.calls({ role: "user", text: "x" }, new Set(format.categories.flatMap((c) => c.detectors)));
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) expect(c.covers.length).toBeGreaterThan(0);
  }
});
