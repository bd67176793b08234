// GuardStream fed malformed bytes on the wire (gRPC and Connect streaming over HTTP/2): the
// client's error with the ErrorDetail and request id, never a server error, never a hang.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { connectError, frame, grpcError, h2Request } from "../../support/wire.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const path = "/parapet.v1.GuardService/GuardStream";
const garbage = Uint8Array.from([0xff, 0xff, 0xff, 0x07, 0x12, 0x00, 0x9a]);

it.each([
  ["an undecodable message", {}, frame(0, garbage)],
  ["a frame longer than it says", {}, frame(0, garbage, 3)],
  ["an unknown compression", { "grpc-encoding": "snappy" }, frame(1, garbage)],
  ["a message with no kind set", {}, frame(0, new Uint8Array())],
])("gRPC: %s is the client's error", async (_, extra, body) => {
  const res = await h2Request(
    server.url,
    { ":path": path, "content-type": "application/grpc", te: "trailers", authorization: `Bearer ${server.screeningKey}`, ...extra },
    body,
  );
  const trailers = Object.keys(res.trailers).length ? res.trailers : res.headers;
  const { error, detail } = grpcError(trailers);
  expect(error).toBeDefined();
  expect(detail?.httpStatus).toBeGreaterThanOrEqual(400);
  expect(detail?.httpStatus).toBeLessThan(500);
  expect(detail?.requestId).toBe(res.headers["x-request-id"]);
});

it("Connect streaming: an undecodable message ends the stream with the client's error", async () => {
  const res = await h2Request(
    server.url,
    { ":path": path, "content-type": "application/connect+proto", authorization: `Bearer ${server.screeningKey}` },
    frame(0, garbage),
  );
  expect(res.status).toBe(200);
  // No verdict was due: the body is the end-of-stream frame alone (flags 0b10, then its JSON).
  const end = res.body;
  expect(end[0] & 0b10).toBe(0b10);
  const json = JSON.parse(end.subarray(5).toString());
  expect(json.error.code).toBe("invalid_argument");
  const { detail } = connectError(JSON.stringify({ code: json.error.code, message: json.error.message, details: json.error.details }));
  expect(detail).toMatchObject({ error: "bad_request", httpStatus: 400, requestId: res.headers["x-request-id"] });
});

it("Connect over HTTP/1.1 is told that GuardStream needs HTTP/2, with the REST sessions as the way out", async () => {
  const res = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/connect+json", authorization: `Bearer ${server.screeningKey}` },
    body: Buffer.concat([frame(0, Buffer.from(JSON.stringify({ open: { messages: [] } })))]),
  });
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  const body = (await res.json()) as { code: string; message: string };
  expect(body.message).toMatch(/needs HTTP\/2/);
});
