// The request log and metrics record the status the client got (docs/operations.md#logs): a body
// that breaks the chunked framing is a 400, a body that misses its receive deadline a 408, on
// HTTP/1.1 and HTTP/2, REST and Connect, each under the request id of its answer and without an
// error-level line; a request whose client reset the connection before any answer is a 499.
import http2 from "node:http2";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/observability/logger.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { parseHttp1, rawExchange } from "../support/wire.js";

const lines: Record<string, unknown>[] = [];
let server: TestServer;
beforeAll(async () => {
  const log = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  // Short deadlines keep the file quick; the waits are on the answers, not on time.
  server = await startTestServer({ PARAPET_HEADERS_TIMEOUT_MS: "300", PARAPET_RECEIVE_TIMEOUT_MS: "600" }, log);
});
afterAll(async () => {
  await server?.close();
});

const paths = { rest: "/v2/guard", connect: "/parapet.v1.GuardService/Guard" };

/** The request log line of `requestId`, once written. */
async function logged(requestId: string): Promise<Record<string, unknown>> {
  let line: Record<string, unknown> | undefined;
  await vi.waitFor(
    () => {
      line = lines.find((l) => l.msg === "request" && l.request_id === requestId);
      expect(line).toBeDefined();
    },
    { timeout: 5000, interval: 20 },
  );
  return line!;
}

function errorLines(requestId: string) {
  return lines.filter((l) => l.request_id === requestId && Number(l.level) >= 50);
}

async function counted(endpoint: string, status: number): Promise<number> {
  const text = await server.app.metrics.registry.metrics();
  const line = text.split("\n").find((l) => l.startsWith(`parapet_http_requests_total{endpoint="${endpoint}",status="${status}"}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("HTTP/1.1", () => {
  it.each(Object.entries(paths))("a bad chunked body (%s) is answered, logged and counted as 400", async (_, path) => {
    const before = await counted(path === paths.rest ? "POST /v2/guard" : path, 400);
    const { text } = await rawExchange(
      server.app.port,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.screeningKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"mes\r\nzz\r\n`,
    );
    const res = parseHttp1(text);
    expect(res.status).toBe(400);
    const requestId = res.headers["x-request-id"];
    expect(res.body).toMatchObject({ status: "error", error: "bad_request", code: 400, request_id: requestId });
    expect((await logged(requestId)).status).toBe(400);
    expect(errorLines(requestId)).toEqual([]);
    expect(await counted(path === paths.rest ? "POST /v2/guard" : path, 400)).toBe(before + 1);
  });

  it.each(Object.entries(paths))("a body that misses its deadline (%s) is answered, logged and counted as 408", async (_, path) => {
    const { text } = await rawExchange(
      server.app.port,
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.screeningKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      10_000,
    );
    const res = parseHttp1(text);
    expect(res.status).toBe(408);
    const requestId = res.headers["x-request-id"];
    expect(res.body).toMatchObject({ error: "request_timeout", code: 408, request_id: requestId });
    expect((await logged(requestId)).status).toBe(408);
    expect(errorLines(requestId)).toEqual([]);
    expect(await counted(path === paths.rest ? "POST /v2/guard" : path, 408)).toBeGreaterThanOrEqual(1);
  });

  it("headers that miss their deadline are a 408 counted under endpoint unparsed and logged with the answer's id", async () => {
    const before = await counted("unparsed", 408);
    const { text } = await rawExchange(server.app.port, "GET /livez HTTP/1.1\r\nHost: x\r\n", 10_000);
    const res = parseHttp1(text);
    expect(res.status).toBe(408);
    const line = lines.find((l) => l.msg === "request rejected by the HTTP parser" && l.request_id === res.headers["x-request-id"]);
    expect(line).toMatchObject({ status: 408, error: "request_timeout" });
    expect(await counted("unparsed", 408)).toBe(before + 1);
  });

  it("a client that resets its connection mid-body is logged as 499, without an error", async () => {
    const socket = net.connect(server.app.port, "127.0.0.1");
    socket.on("error", () => {});
    await new Promise((resolve) => socket.once("connect", resolve));
    const before = lines.length;
    socket.write(`POST /v2/guard HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.screeningKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
    // Once the service has the request (its access-log entry begins with the headers), reset.
    await vi.waitFor(() => expect(server.app.metrics.inFlight.get()).resolves.toMatchObject({ values: [{ value: 1 }] }), { timeout: 5000, interval: 10 });
    socket.resetAndDestroy();
    let line: Record<string, unknown> | undefined;
    await vi.waitFor(
      () => {
        line = lines.slice(before).find((l) => l.msg === "request");
        expect(line).toBeDefined();
      },
      { timeout: 5000, interval: 20 },
    );
    expect(line!.status).toBe(499);
    expect(lines.slice(before).filter((l) => Number(l.level) >= 50)).toEqual([]);
  });
});

describe("HTTP/2", () => {
  it.each(Object.entries(paths))("a body that misses its deadline (%s) is answered, logged and counted as 408, once", async (_, path) => {
    const session = http2.connect(server.url);
    session.on("error", () => {});
    const stream = session.request({ ":method": "POST", ":path": path, "content-type": "application/json", authorization: `Bearer ${server.screeningKey}` });
    stream.on("error", () => {});
    stream.write("{");
    let head: http2.IncomingHttpHeaders = {};
    let text = "";
    stream.on("response", (h) => (head = h));
    stream.on("data", (d: Buffer) => (text += d.toString()));
    await new Promise((resolve) => stream.on("close", resolve));
    session.destroy();
    expect(Number(head[":status"])).toBe(408);
    const requestId = String(head["x-request-id"]);
    expect(JSON.parse(text)).toMatchObject({ error: "request_timeout", code: 408, request_id: requestId });
    expect((await logged(requestId)).status).toBe(408);
    // The handler, whose body read ended under it, neither answers again nor logs a failure.
    await vi.waitFor(() => expect(server.app.metrics.inFlight.get()).resolves.toMatchObject({ values: [{ value: 0 }] }), { timeout: 5000, interval: 20 });
    expect(errorLines(requestId)).toEqual([]);
  });
});
