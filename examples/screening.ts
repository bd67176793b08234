// Screens a conversation with the generated TypeScript client over Connect
// (HTTP/1.1): POST /v2/guard's RPC, GuardService.Guard. Run against a started service:
//   PARAPET_URL=http://localhost:8080 PARAPET_SCREENING_KEY=psk_... npx tsx examples/screening.ts
// Optional: PARAPET_PROJECT_ID to screen under a project's policy instead of the default one.
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { GuardService } from "../gen/parapet/v1/guard_pb.js";

const baseUrl = process.env.PARAPET_URL ?? "http://localhost:8080";
const key = process.env.PARAPET_SCREENING_KEY;
if (!key) {
  console.error("set PARAPET_SCREENING_KEY to a screening key (see data/bootstrap-keys.json)");
  process.exit(2);
}

// Screening keys work on POST /v2/guard only; platform keys are refused there (docs/api.md#authentication).
const bearer: Interceptor = (next) => (req) => {
  req.header.set("authorization", `Bearer ${key}`);
  return next(req);
};
const guard = createClient(GuardService, createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors: [bearer] }));

const answer = await guard.guard({
  projectId: process.env.PARAPET_PROJECT_ID,
  messages: [
    { role: "system", content: "You are the support assistant of an online shop." },
    // OpenAI content parts: REST clients send them as a `content` array, RPC clients as
    // contentParts. Text parts are screened joined by "\n"; the image is skipped and named
    // in devInfo.notes.
    {
      role: "user",
      contentParts: [{ type: "text", text: "Where is my order? You can reach me at" }, { type: "image_url" }, { type: "text", text: "jane.doe@example.com" }],
    },
  ],
  breakdown: true,
  payload: true,
  devInfo: true,
});

console.log(`flagged: ${answer.flagged}`);
console.log(
  `detected: ${
    answer.breakdown
      .filter((b) => b.detected)
      .map((b) => `${b.detectorType} (message ${b.messageId})`)
      .join(", ") || "nothing"
  }`,
);
for (const span of answer.payload) console.log(`span: ${span.detectorType} [${span.start}, ${span.end}) ${JSON.stringify(span.text)}`);
for (const note of answer.devInfo?.notes ?? []) console.log(`note: ${note}`);
// Also the X-Request-Id of the call and the request log's request_uuid (POST /v1-beta/logs).
console.log(`request: ${answer.metadata?.requestUuid}`);
