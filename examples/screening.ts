// Screens a conversation with the typed client package, @parapet/client
// (clients/typescript): first with its screen() helper, then with the
// generated GuardService client it bundles. Run against a started service:
//   PARAPET_URL=http://localhost:8080 PARAPET_SCREENING_KEY=psk_... npx tsx examples/screening.ts
// Optional: PARAPET_PROJECT_ID to screen under a project's policy instead of the default one.
import { createParapetClient, GuardService, ParapetError, screen } from "@parapet/client";
import { createParapetTransport } from "@parapet/client/node";

const baseUrl = process.env.PARAPET_URL ?? "http://localhost:8080";
const apiKey = process.env.PARAPET_SCREENING_KEY;
if (!apiKey) {
  console.error("set PARAPET_SCREENING_KEY to a screening key (see data/bootstrap-keys.json)");
  process.exit(2);
}

// Screening keys work on POST /v2/guard only; platform keys are refused there (docs/api.md#authentication).
// Connect over HTTP/1.1; `protocol: "grpc"` is the same call over gRPC.
const transport = createParapetTransport({ baseUrl, apiKey, protocol: "connect" });

// Messages as an OpenAI chat-completions request holds them: text parts of a content array are
// screened joined by "\n"; the image is skipped and named in devInfo.notes.
const result = await screen(transport, {
  projectId: process.env.PARAPET_PROJECT_ID,
  messages: [
    { role: "system", content: "You are the support assistant of an online shop." },
    {
      role: "user",
      content: [
        { type: "text", text: "Where is my order? You can reach me at" },
        { type: "image_url", image_url: { url: "https://example.com/parcel.png" } },
        { type: "text", text: "jane.doe@example.com" },
      ],
    },
  ],
  breakdown: true,
  payload: true,
  devInfo: true,
  metadata: { session: "example" },
});

console.log(`flagged: ${result.flagged}`);
console.log(
  `detected: ${
    result.breakdown
      .filter((b) => b.detected)
      .map((b) => `${b.detectorType} (message ${b.messageId})`)
      .join(", ") || "nothing"
  }`,
);
for (const span of result.payload) console.log(`span: ${span.detectorType} [${span.start}, ${span.end}) ${JSON.stringify(span.text)}`);
for (const note of result.devInfo?.notes ?? []) console.log(`note: ${note}`);
// Also the X-Request-Id of the call and the request log's request_uuid (POST /v1-beta/logs).
console.log(`request: ${result.requestId}`);

// The generated client for full control: the request is the protobuf GuardRequest (content parts
// are `contentParts` there). Errors are ParapetError on every protocol: the contract's identifier,
// message, HTTP status and request id.
const guard = createParapetClient(GuardService, transport);
try {
  await guard.guard({ messages: [{ role: "wizard", content: "Hello" }] });
} catch (err) {
  if (!(err instanceof ParapetError)) throw err;
  console.log(`refused: ${err.error} (${err.httpStatus}) ${err.message} [request ${err.requestId}]`);
}
