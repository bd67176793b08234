// Every protocol error is a client error (docs/api.md#protocol-errors): what
// the RPC framework rejects while decoding, and what Node's HTTP parser
// rejects, answers 4xx / invalid_argument with our identifier and the
// request id — never 500 / internal, never an empty body.
import { create, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardRequestSchema } from "../../gen/parapet/v1/guard_pb.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { connectError, frame, grpcError, grpcWebTrailers, h2Request, parseHttp1, rawExchange } from "../support/wire.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const guardPath = "/parapet.v1.GuardService/Guard";
const getPolicyPath = "/parapet.v1.PolicyService/GetPolicy";
const hi = { messages: [{ role: "user", content: "hi" }] };
const undecodable = Uint8Array.from([0x0a, 0xff]);

function nested(depth: number): JsonObject {
  let value: JsonObject = { leaf: 1 };
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
}

async function connectPost(contentType: string, body: Uint8Array | string, key = server.screeningKey) {
  const res = await fetch(server.url + guardPath, {
    method: "POST",
    headers: { "content-type": contentType, authorization: `Bearer ${key}` },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  return { status: res.status, requestId: res.headers.get("x-request-id"), body: Buffer.from(await res.arrayBuffer()) };
}

async function connectGet(query: string) {
  const res = await fetch(`${server.url}${getPolicyPath}?${query}`, { headers: { authorization: `Bearer ${server.platformKey}` } });
  return { status: res.status, requestId: res.headers.get("x-request-id"), body: Buffer.from(await res.arrayBuffer()) };
}

function expectConnectBadRequest(res: { status: number; requestId: string | null; body: Buffer }) {
  expect(res.status, res.body.toString()).toBe(400);
  const err = connectError(res.body);
  expect(err.code).toBe("invalid_argument");
  expect(err.detail).toMatchObject({ error: "bad_request", httpStatus: 400, requestId: res.requestId });
  expect(res.requestId).toMatch(/^[0-9a-f-]{36}$/);
}

describe("Connect protocol errors", () => {
  it("an undecodable protobuf body is 400 invalid_argument with ErrorDetail and request id", async () => {
    expectConnectBadRequest(await connectPost("application/proto", undecodable));
  });

  it("malformed JSON carries the ErrorDetail too", async () => {
    expectConnectBadRequest(await connectPost("application/json", "{"));
  });

  it("a GET with a bad message, encoding or base64 parameter is 400", async () => {
    for (const query of [
      "connect=v1&encoding=json&message=%7B",
      "connect=v1&encoding=xml&message=%7B%7D",
      "connect=v1&encoding=proto&base64=1&message=!!!",
      `connect=v1&encoding=proto&base64=1&message=${encodeURIComponent(base64Encode(undecodable, "url"))}`,
      "connect=v1&encoding=json&compression=zstd&message=%7B%7D",
    ]) {
      const res = await connectGet(query);
      expectConnectBadRequest(res);
    }
  });

  it("an unknown content type is 400, a method an RPC does not take 405, both with the detail", async () => {
    expectConnectBadRequest(await connectPost("text/plain", "hello"));
    const res = await fetch(server.url + guardPath, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(405);
    const err = connectError(Buffer.from(await res.arrayBuffer()));
    expect(err.detail).toMatchObject({ error: "method_not_allowed", requestId: res.headers.get("x-request-id") });
  });

  it("a compressed body that does not decompress is 400", async () => {
    const res = await fetch(server.url + guardPath, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip", authorization: `Bearer ${server.screeningKey}` },
      body: "not gzip",
    });
    expectConnectBadRequest({ status: res.status, requestId: res.headers.get("x-request-id"), body: Buffer.from(await res.arrayBuffer()) });
  });

  it("a bidi stream over HTTP/1.1 is a client error, not 505", async () => {
    const res = await fetch(`${server.url}/grpc.reflection.v1.ServerReflection/ServerReflectionInfo`, {
      method: "POST",
      headers: { "content-type": "application/connect+json" },
      body: new Uint8Array(frame(0, Buffer.from("{}"))),
    });
    expect(res.status).toBe(400);
    expect(connectError(Buffer.from(await res.arrayBuffer())).detail?.error).toBe("bad_request");
  });
});

describe("gRPC and gRPC-Web protocol errors", () => {
  const grpcCases: [string, Buffer, Record<string, string>][] = [
    ["undecodable protobuf", frame(0, undecodable), {}],
    ["compressed flag without grpc-encoding", frame(1, undecodable), {}],
    ["unknown grpc-encoding", frame(1, undecodable), { "grpc-encoding": "snappy" }],
    ["gzip flag on bytes that are not gzip", frame(1, undecodable), { "grpc-encoding": "gzip" }],
    ["truncated frame", frame(0, undecodable, 9), {}],
    ["bad grpc-timeout", frame(0, new Uint8Array()), { "grpc-timeout": "soon" }],
  ];

  for (const [name, body, extra] of grpcCases) {
    it(`gRPC: ${name} is invalid_argument with the detail`, async () => {
      const res = await h2Request(
        server.url,
        { ":path": guardPath, "content-type": "application/grpc", te: "trailers", authorization: `Bearer ${server.screeningKey}`, ...extra },
        body,
      );
      const { error, detail } = grpcError({ ...res.headers, ...res.trailers });
      expect(error?.code, JSON.stringify(res.trailers)).toBe(3);
      expect(detail).toMatchObject({ error: "bad_request", requestId: res.headers["x-request-id"] });
    });

    it(`gRPC-Web: ${name} is invalid_argument with the detail`, async () => {
      const res = await fetch(server.url + guardPath, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", authorization: `Bearer ${server.screeningKey}`, ...extra },
        body: new Uint8Array(body),
      });
      const { error, detail } = grpcError(grpcWebTrailers(Buffer.from(await res.arrayBuffer())));
      expect(error?.code).toBe(3);
      expect(detail).toMatchObject({ error: "bad_request", requestId: res.headers.get("x-request-id") });
    });
  }

  it("errors our own code raises keep their identifier (unauthenticated passes unchanged)", async () => {
    const res = await h2Request(
      server.url,
      { ":path": guardPath, "content-type": "application/grpc", te: "trailers" },
      frame(0, toBinary(GuardRequestSchema, create(GuardRequestSchema, hi))),
    );
    expect(grpcError(res.trailers).detail?.error).toBe("unauthenticated");
  });
});

describe("a deadline of zero or less is a malformed request, not a deadline exceeded", () => {
  const binary = toBinary(GuardRequestSchema, create(GuardRequestSchema, hi as never));

  it.each(["0", "00", "-5", "-1"])("connect-timeout-ms: %s is 400 invalid_argument", async (value) => {
    const res = await fetch(server.url + guardPath, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.screeningKey}`, "connect-timeout-ms": value },
      body: JSON.stringify(hi),
    });
    const answer = { status: res.status, requestId: res.headers.get("x-request-id"), body: Buffer.from(await res.arrayBuffer()) };
    expectConnectBadRequest(answer);
    expect(connectError(answer.body).message).toContain(`connect timeout value: ${value}`);
  });

  it.each(["0m", "0S", "00000000H", "0n", "-1m"])("grpc-timeout: %s is INVALID_ARGUMENT on gRPC and gRPC-Web", async (value) => {
    const res = await h2Request(
      server.url,
      { ":path": guardPath, "content-type": "application/grpc", te: "trailers", "grpc-timeout": value, authorization: `Bearer ${server.screeningKey}` },
      frame(0, binary),
    );
    const { error, detail } = grpcError(res.trailers);
    expect(error?.code, res.trailers["grpc-message"]).toBe(3);
    expect(detail).toMatchObject({ error: "bad_request", requestId: res.headers["x-request-id"] });
    const web = await fetch(server.url + guardPath, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "grpc-timeout": value, authorization: `Bearer ${server.screeningKey}` },
      body: new Uint8Array(frame(0, binary)),
    });
    expect(grpcWebTrailers(Buffer.from(await web.arrayBuffer()))["grpc-status"]).toBe("3");
  });
});

describe("free-form JSON depth", () => {
  const deep = (depth: number) => ({ ...hi, metadata: nested(depth) });

  it("metadata nested 32 deep is accepted on every protocol", async () => {
    expect((await server.rest("POST", "/v2/guard", deep(32), server.screeningKey)).status).toBe(200);
    expect((await connectPost("application/json", JSON.stringify(deep(32)))).status).toBe(200);
  });

  it("metadata nested 33, 99 or 150 deep is 400 bad_request on REST", async () => {
    for (const depth of [33, 99, 150]) {
      const res = await server.rest("POST", "/v2/guard", deep(depth), server.screeningKey);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: "error", error: "bad_request", code: 400, request_id: res.headers.get("x-request-id") });
    }
  });

  it("metadata nested 40 or 150 deep is invalid_argument on Connect JSON, Connect binary and gRPC", async () => {
    for (const depth of [40, 150]) {
      expectConnectBadRequest(await connectPost("application/json", JSON.stringify(deep(depth))));
      const binary = toBinary(GuardRequestSchema, create(GuardRequestSchema, deep(depth) as never));
      expectConnectBadRequest(await connectPost("application/proto", binary));
      const res = await h2Request(
        server.url,
        { ":path": guardPath, "content-type": "application/grpc", te: "trailers", authorization: `Bearer ${server.screeningKey}` },
        frame(0, binary),
      );
      expect(grpcError(res.trailers).detail).toMatchObject({ error: "bad_request", requestId: res.headers["x-request-id"] });
    }
  });

  it("a tool's parameters are capped the same way", async () => {
    const tools = [{ type: "function", function: { name: "t", parameters: nested(40) } }];
    const res = await server.rest("POST", "/v2/guard", { ...hi, tools }, server.screeningKey);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("tools[0].function.parameters");
  });
});

describe("low-level HTTP errors answer the Error object", () => {
  async function raw(data: string) {
    const { text, closed } = await rawExchange(server.app.port, data);
    const res = parseHttp1(text);
    expect(closed).toBe(true);
    expect(res.body, text).toMatchObject({ status: "error", code: res.status, request_id: res.headers["x-request-id"] });
    return res;
  }

  it("an unknown method is 400 bad_request", async () => {
    const res = await raw("FOO / HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
  });

  it("CONNECT is 405 method_not_allowed", async () => {
    const res = await raw("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expect(res.status).toBe(405);
    expect(res.body.error).toBe("method_not_allowed");
  });

  it("oversized headers are 431 headers_too_large", async () => {
    const res = await raw(`GET /livez HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body.error).toBe("headers_too_large");
  });

  it("bad framing is 400 bad_request", async () => {
    for (const request of [
      "POST /v2/guard HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "POST /v2/guard HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
      "GET / HTTP/9.9\r\n\r\n",
      "\x16\x03\x01\x02\x00garbage\r\n\r\n",
    ]) {
      const res = await raw(request);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("bad_request");
    }
  });

  it("an HTTP/1.1 request without Host is 400 with the Error object, logged and counted", async () => {
    const counted = async () => {
      const line = (await server.app.metrics.registry.metrics())
        .split("\n")
        .find((l) => l.startsWith('parapet_http_requests_total{endpoint="POST /v2/guard",status="400"}'));
      return line ? Number(line.split(" ").pop()) : 0;
    };
    const before = await counted();
    for (const path of ["/v2/guard", guardPath, "/livez"]) {
      const res = await raw(`POST ${path} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "bad_request", message: "an HTTP/1.1 request must carry a Host header" });
    }
    expect(await counted()).toBe(before + 1);
  });

  it("an HTTP/1.0 request without Host is served where it can be", async () => {
    const { text } = await rawExchange(server.app.port, "GET /livez HTTP/1.0\r\n\r\n");
    expect(parseHttp1(text).status).toBe(200);
  });

  it("an HTTP/1.0 RPC request without Host is 400, not 500", async () => {
    const { text } = await rawExchange(server.app.port, `POST ${guardPath} HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    expect(parseHttp1(text).status).toBe(400);
  });

  it("the service still answers after all of the above", async () => {
    expect((await server.rest("POST", "/v2/guard", hi, server.screeningKey)).status).toBe(200);
  });
});
