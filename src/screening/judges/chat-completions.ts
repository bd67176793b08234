// POST <base>/chat/completions of an OpenAI-compatible server (vLLM, Ollama,
// llama.cpp, TGI, SGLang, LM Studio). node:http with a keep-alive agent rather
// than fetch: one connection per concurrent call is reused across requests, and
// every failure is told apart for the log and the metrics (docs/judges.md#faults).
import http from "node:http";
import https from "node:https";
import type { ChatAnswer } from "./format.js";

/** Why a call failed; the metrics' `reason` label. */
export type CallFailure = "timeout" | "deadline" | "unreachable" | "status" | "malformed";

export class JudgeCallError extends Error {
  constructor(
    readonly reason: CallFailure,
    message: string,
    /** The HTTP status, for `status`. */
    readonly status?: number,
  ) {
    super(message);
    this.name = "JudgeCallError";
  }
}

/** An answer larger than this is not a verdict: read no further. */
const MAX_ANSWER_BYTES = 1024 * 1024;

interface RawChoice {
  message?: { content?: unknown };
  logprobs?: { content?: { token?: unknown; logprob?: unknown; top_logprobs?: { token?: unknown; logprob?: unknown }[] }[] | null } | null;
}

function answerOf(json: unknown): ChatAnswer {
  const choice = (json as { choices?: RawChoice[] } | null)?.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== "string") throw new JudgeCallError("malformed", "the answer has no choices[0].message.content string");
  const tokens = choice?.logprobs?.content;
  if (!Array.isArray(tokens) || !tokens.length) return { content };
  const logprobs = tokens
    .filter((t) => typeof t.token === "string" && typeof t.logprob === "number")
    .map((t) => ({
      token: t.token as string,
      logprob: t.logprob as number,
      top: (t.top_logprobs ?? []).filter((a) => typeof a.token === "string" && typeof a.logprob === "number") as { token: string; logprob: number }[],
    }));
  return { content, logprobs };
}

export class ChatCompletions {
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly request: typeof http.request;

  constructor(
    baseUrl: string,
    private readonly apiKey: string | undefined,
    maxSockets: number,
  ) {
    this.url = new URL(`${baseUrl}/chat/completions`);
    const secure = this.url.protocol === "https:";
    this.agent = secure ? new https.Agent({ keepAlive: true, maxSockets }) : new http.Agent({ keepAlive: true, maxSockets });
    this.request = secure ? https.request : http.request;
  }

  /** The answer, or a JudgeCallError; `signal`'s reason is the error when it aborts the call. */
  post(body: object, signal: AbortSignal): Promise<ChatAnswer> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const payload = Buffer.from(JSON.stringify(body));
      const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": payload.length, accept: "application/json" };
      if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
      const req = this.request(this.url, { method: "POST", headers, agent: this.agent });
      const onAbort = () => req.destroy(signal.reason as Error);
      signal.addEventListener("abort", onAbort, { once: true });
      const fail = (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) return reject(signal.reason as Error);
        if (err instanceof JudgeCallError) return reject(err);
        const code = (err as NodeJS.ErrnoException).code;
        reject(new JudgeCallError("unreachable", `${this.url.host}: ${code ?? (err instanceof Error ? err.message : String(err))}`));
      };
      req.on("error", fail);
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new JudgeCallError("malformed", `the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on("error", fail);
        res.on("end", () => {
          signal.removeEventListener("abort", onAbort);
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            const detail = text.replace(/\s+/g, " ").slice(0, 200);
            return reject(new JudgeCallError("status", `HTTP ${status}${detail ? `: ${detail}` : ""}`, status));
          }
          try {
            resolve(answerOf(JSON.parse(text)));
          } catch (err) {
            reject(err instanceof JudgeCallError ? err : new JudgeCallError("malformed", "the answer is not JSON"));
          }
        });
      });
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
