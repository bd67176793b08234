// A fake OpenAI-compatible judge for the judge tests: POST /v1/chat/completions
// on a loopback port, answering as each format's model would (by trigger words
// in the judged text) or as a test scripts it: a status, a body that is not an
// answer, an answer held back until the test releases it.
import http from "node:http";
import net, { type AddressInfo } from "node:net";

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string | { type: string; text: string }[] }[];
  chat_template_kwargs?: { guideline?: string; guardian_config?: { risk_name?: string } };
  logprobs?: boolean;
  top_logprobs?: number;
  max_tokens?: number;
  temperature?: number;
}

export interface FakeReply {
  status?: number;
  /** A chat-completion answer with this content (and logprobs, when given). */
  content?: string;
  logprobs?: { token: string; logprob: number; top_logprobs: { token: string; logprob: number }[] }[];
  /** The body as is, instead of an answer. */
  raw?: string;
  /** Hold the answer until `release()` (or the client gives up). */
  hold?: boolean;
}

export type FakeHandler = (body: ChatRequestBody) => FakeReply;

export interface FakeJudge {
  /** The base URL to configure: `http://127.0.0.1:<port>/v1`. */
  url: string;
  /** Every request body received, in order, and each one's Authorization header. */
  received: ChatRequestBody[];
  authorizations: (string | undefined)[];
  /** Requests being answered now, and the most at once so far. */
  inFlight: number;
  maxInFlight: number;
  handler: FakeHandler;
  /** Answers every held request. */
  release(): void;
  close(): Promise<void>;
}

/** The text a request judges: the last message's. */
export function judgedText(body: ChatRequestBody): string {
  const last = body.messages[body.messages.length - 1];
  return typeof last.content === "string" ? last.content : last.content.map((c) => c.text).join("\n");
}

/** Logprobs for an answer whose first word is `word`, `p` being the probability of the positive word at that token. */
export function verdictLogprobs(content: string, positive: string, negative: string, p: number): FakeReply["logprobs"] {
  const word = /\S+/.exec(content)![0];
  const tokens = [content.slice(0, content.indexOf(word)), word, content.slice(content.indexOf(word) + word.length)].filter(Boolean);
  return tokens.map((token) => ({
    token,
    logprob: token === word ? Math.log(word.toLowerCase() === positive.toLowerCase() ? p : 1 - p) : -0.01,
    top_logprobs:
      token === word
        ? [
            { token: positive, logprob: Math.log(p) },
            { token: negative, logprob: Math.log(1 - p) },
          ]
        : [],
  }));
}

/**
 * The answer of each format's model, from markers the built-in detectors do not read: <violence>,
 * <hate>, <weapons>, <privacy> (Llama Guard's S7, which no detector reports), <jailbreak>; a
 * guardrail policy naming competitors flags text that mentions pricing.
 */
export function modelAnswer(body: ChatRequestBody): FakeReply {
  const text = judgedText(body);
  const first = body.messages[0];
  const system = first.role === "system" && typeof first.content === "string" ? first.content : "";
  const kwargs = body.chat_template_kwargs;
  if (system) {
    // gpt-oss-safeguard: Parapet's policy answers JSON, a guardrail's policy 0 or 1.
    if (system.includes("## OUTPUT")) return { content: /pricing/i.test(text) && /competitor/i.test(system) ? "1" : "0" };
    const category = /<violence>/.test(text) ? "violence" : /<hate>/.test(text) ? "hate" : /<jailbreak>/.test(text) ? "prompt_attack" : null;
    return { content: JSON.stringify({ violation: category ? 1 : 0, policy_category: category }) };
  }
  if (kwargs?.guideline !== undefined) {
    const g = kwargs.guideline;
    const yes = (/Dangerous/.test(g) && /<violence>|<weapons>/.test(text)) || (/Hate Speech/.test(g) && /<hate>/.test(text));
    const content = yes ? "Yes" : "No";
    return { content, logprobs: verdictLogprobs(content, "Yes", "No", yes ? 0.97 : 0.02) };
  }
  if (kwargs?.guardian_config) {
    const risk = kwargs.guardian_config.risk_name;
    const yes = (risk === "violence" && /<violence>/.test(text)) || (risk === "social_bias" && /<hate>/.test(text)) || (risk === "jailbreak" && /<jailbreak>/.test(text));
    const content = yes ? "Yes" : "No";
    return { content, logprobs: verdictLogprobs(content, "Yes", "No", yes ? 0.93 : 0.04) };
  }
  // Llama Guard: the judged message's categories.
  const categories = [/<violence>/.test(text) && "S1", /<weapons>/.test(text) && "S9", /<hate>/.test(text) && "S10", /<privacy>/.test(text) && "S7"].filter(Boolean);
  const content = categories.length ? `unsafe\n${categories.join(",")}` : "safe";
  return { content, logprobs: verdictLogprobs(content, "unsafe", "safe", categories.length ? 0.99 : 0.01) };
}

function answerBody(r: FakeReply, model: string): string {
  return JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion",
    model,
    choices: [{ index: 0, message: { role: "assistant", content: r.content }, logprobs: r.logprobs ? { content: r.logprobs } : null, finish_reason: "stop" }],
  });
}

export async function startFakeJudge(handler: FakeHandler = modelAnswer): Promise<FakeJudge> {
  const held: (() => void)[] = [];
  const fake: FakeJudge = {
    url: "",
    received: [],
    authorizations: [],
    inFlight: 0,
    maxInFlight: 0,
    handler,
    release() {
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequestBody;
      fake.received.push(body);
      fake.authorizations.push(req.headers.authorization);
      fake.inFlight++;
      fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
      const reply = fake.handler(body);
      let done = false;
      const finish = () => {
        if (!done) fake.inFlight--;
        done = true;
      };
      const answer = () => {
        if (done) return;
        finish();
        res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
        res.end(reply.raw ?? answerBody(reply, body.model));
      };
      // A client that gave up is no longer in flight.
      res.on("close", finish);
      if (reply.hold) held.push(answer);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const close = fake.close;
  fake.close = () => {
    fake.release();
    server.closeAllConnections();
    return close();
  };
  return fake;
}

/** A port nothing listens on: one the system just gave out and took back. */
export async function closedPort(): Promise<number> {
  // Port 1 lies below the ephemeral range, so no server a test starts on port 0 can take it between
  // this check and the judge's call (a port freed by closing a listener can be, on a busy machine).
  const refused = await new Promise<boolean>((resolve) => {
    const socket = net.connect(1, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(false)));
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
  if (!refused) throw new Error("closedPort: something listens on 127.0.0.1:1; the closed-port tests need it closed");
  return 1;
}
