// A gateway that streams a model's answer through Parapet (docs/streaming.md#example): it opens a
// GuardStream with the user's conversation, forwards each token of the (simulated) model as a
// delta, shows the user only the text Parapet released, and ends the answer when Parapet says
// stop. Uses the typed client package, @parapet/client (its generated GuardService client), over
// gRPC (HTTP/2). Run against a started service:
//   PARAPET_URL=http://localhost:8080 PARAPET_SCREENING_KEY=psk_... npx tsx examples/stream-gateway.ts
// Optional: PARAPET_PROJECT_ID to screen under a project's policy (its mode decides whether a
// detection stops the answer).
import type { MessageInitShape } from "@bufbuild/protobuf";
import { createParapetClient, GuardService, type GuardStreamRequestSchema, type GuardStreamVerdict } from "@parapet/client";
import { createParapetTransport } from "@parapet/client/node";

type StreamMessage = MessageInitShape<typeof GuardStreamRequestSchema>;

const baseUrl = process.env.PARAPET_URL ?? "http://localhost:8080";
const apiKey = process.env.PARAPET_SCREENING_KEY;
if (!apiKey) {
  console.error("set PARAPET_SCREENING_KEY to a screening key (see data/bootstrap-keys.json)");
  process.exit(2);
}

// GuardStream streams both ways: gRPC, or Connect with `httpVersion: "2"`; without HTTP/2, the REST sessions (docs/streaming.md).
const guard = createParapetClient(GuardService, createParapetTransport({ baseUrl, apiKey, protocol: "grpc" }));

/** A simulated model: an answer, a few characters at a time, at a model's pace. */
async function* model(answer: string): AsyncIterable<string> {
  for (let i = 0; i < answer.length;) {
    const n = 3 + (i % 5);
    yield answer.slice(i, i + n);
    i += n;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Requests the gateway pushes as the model produces tokens: GuardStream's request side. */
function outbox() {
  const queue: StreamMessage[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  return {
    push(m: StreamMessage) {
      queue.push(m);
      wake?.();
    },
    /** No more requests: the call's request side ends, and its connection can close. */
    end() {
      ended = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length) yield queue.shift()!;
        if (ended) return;
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
}

/** Code points [from, to) of `text`: verdict offsets count code points, as /v2/guard spans do. */
function codePoints(text: string, from: number, to: number): string {
  return Array.from(text).slice(from, to).join("");
}

/** Streams one answer through Parapet; returns what the user was shown. */
async function answerThroughParapet(conversation: { role: string; content: string }[], answer: string): Promise<{ shown: string; stopped: boolean; logId: string }> {
  const requests = outbox();
  const verdicts = guard.guardStream(requests as AsyncIterable<never>)[Symbol.asyncIterator]();
  const next = async (m: StreamMessage): Promise<GuardStreamVerdict> => {
    requests.push(m);
    const r = await verdicts.next();
    if (r.done) throw new Error("Parapet ended the stream");
    return r.value;
  };
  await next({ kind: { case: "open", value: { messages: conversation, projectId: process.env.PARAPET_PROJECT_ID, payload: true } } });
  let produced = "";
  let shown = "";
  let released = 0;
  const reported = new Set<string>();
  const show = (to: number) => {
    const text = codePoints(produced, released, to);
    process.stdout.write(text);
    shown += text;
    released = to;
  };
  for await (const token of model(answer)) {
    produced += token;
    const v = await next({ kind: { case: "delta", value: { text: token } } });
    show(v.releasedOffset);
    for (const p of v.payload) {
      reported.add(`${p.detectorType}@${p.start}`);
      process.stdout.write(`\n  [parapet: ${p.detectorType} at ${p.start}-${p.end}]\n`);
    }
    if (v.stop) {
      // Flagged in enforce mode: the model's answer ends here for the user (a real gateway also cancels the model call).
      process.stdout.write("\n  [answer stopped by the guardrail]\n");
      break;
    }
  }
  const final = await next({ kind: { case: "close", value: {} } });
  requests.end();
  // The close verdict lists every detection of the request; the ones in the streamed message are the answer's.
  const late = final.payload.filter((p) => p.messageId === final.messageId && !reported.has(`${p.detectorType}@${p.start}`));
  for (const p of late) process.stdout.write(`\n  [parapet: ${p.detectorType} at ${p.start}-${p.end}]\n`);
  if (!final.stop) show(final.releasedOffset);
  process.stdout.write("\n");
  return { shown, stopped: final.stop, logId: final.metadata?.requestUuid ?? "" };
}

const conversation = [
  { role: "system", content: "You are the support assistant of a bookshop." },
  { role: "user", content: "What are your opening hours, and who can I write to about an order?" },
];

console.log("--- a clean answer");
const clean = await answerThroughParapet(
  conversation,
  "We open at nine in the morning and close at six in the evening, every day but Sunday. For orders, use the form on the order page.",
);
console.log(`shown ${clean.shown.length} characters, stopped: ${clean.stopped}, log ${clean.logId}`);

console.log("--- an answer that leaks an address");
const leaky = await answerThroughParapet(
  conversation,
  "We open at nine. For orders, write to our manager at jane.doe@example.com and she will answer within a day. We also have gift cards, and a stamp card for regular customers.",
);
console.log(`shown ${leaky.shown.length} characters, stopped: ${leaky.stopped}, log ${leaky.logId}`);
