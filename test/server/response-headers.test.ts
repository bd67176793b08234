// Every answer of the API port carries X-Content-Type-Options: nosniff (docs/operations.md#exposure),
// whatever the protocol, status or content type, the answers Node's parser rejections get included.
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardRequestSchema } from "../../gen/parapet/v1/guard_pb.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { frame, h2Request, parseHttp1, rawExchange } from "../support/wire.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const hi = { messages: [{ role: "user", content: "hi" }] };

describe("X-Content-Type-Options: nosniff", () => {
  it("on REST, Connect, probes, the OpenAPI document, the metrics and unknown paths, answered or refused", async () => {
    const answers = [
      await server.rest("POST", "/v2/guard", hi, server.screeningKey),
      await server.rest("POST", "/v2/guard", hi, null),
      await server.rest("GET", "/v1/policies/policy-default"),
      await server.rest("GET", "/nowhere"),
      await server.rest("GET", "/livez"),
      await server.rest("GET", "/openapi.json"),
      await server.rest("GET", "/metrics"),
      await server.rest("POST", "/parapet.v1.GuardService/Guard", hi, server.screeningKey),
      await server.rest("POST", "/parapet.v1.GuardService/Guard", "{", server.screeningKey),
    ];
    for (const res of answers) expect(res.headers.get("x-content-type-options"), `${res.status} ${JSON.stringify(res.body).slice(0, 80)}`).toBe("nosniff");
  });

  it("on gRPC over HTTP/2", async () => {
    const res = await h2Request(
      server.url,
      { ":path": "/parapet.v1.GuardService/Guard", "content-type": "application/grpc", te: "trailers", authorization: `Bearer ${server.screeningKey}` },
      frame(0, toBinary(GuardRequestSchema, create(GuardRequestSchema, hi as never))),
    );
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("on what the HTTP/1.1 parser rejects", async () => {
    const { text } = await rawExchange(server.app.port, "FOO / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(parseHttp1(text).headers["x-content-type-options"]).toBe("nosniff");
  });
});
