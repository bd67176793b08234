// What one HTTP/2 session may make the server do for nothing (src/server/http2-abuse-limits.ts,
// docs/configuration.md#connections): a rapid-reset flood and a run of invalid frames end their
// session with GOAWAY and a closed socket, while a client cancelling some of its calls keeps its
// session and everyone else is served.
import http2 from "node:http2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode, flags, frameType, getHeaders, h2Frame, rawH2, rstStream } from "../support/h2-frames.js";
import { startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** GET /livez on a fresh session: the service still answers. */
async function livez(): Promise<number> {
  const session = http2.connect(server.url);
  session.on("error", () => {});
  try {
    return await new Promise<number>((resolve, reject) => {
      const stream = session.request({ ":path": "/livez" });
      stream.on("response", (h) => resolve(Number(h[":status"])));
      stream.on("error", reject);
      stream.resume();
    });
  } finally {
    session.close();
  }
}

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(name));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("HTTP/2 abuse limits", () => {
  it("a session that opens and resets 1,000 streams gets GOAWAY ENHANCE_YOUR_CALM and is closed", { timeout: 15_000 }, async () => {
    const flood = await rawH2(server.app.port);
    const frames: Buffer[] = [];
    for (let i = 0; i < 1000; i++) {
      const id = 2 * i + 1;
      frames.push(h2Frame(frameType.headers, flags.endHeaders, id, getHeaders("/livez")), rstStream(id));
    }
    flood.socket.write(Buffer.concat(frames));
    expect(await flood.goaway).toBe(errorCode.enhanceYourCalm);
    await flood.closed;
    expect(await metric('parapet_http2_sessions_closed_total{reason="stream_resets"}')).toBe(1);
    expect(await livez()).toBe(200);
  });

  it("a session sending 300 invalid frames is closed; Node's default allows 1,000", { timeout: 15_000 }, async () => {
    const invalid = await rawH2(server.app.port);
    const frames: Buffer[] = [];
    // An upper-case header name is a stream error in HTTP/2: each of these is an invalid frame.
    for (let i = 0; i < 300; i++) frames.push(h2Frame(frameType.headers, flags.endHeaders | flags.endStream, 2 * i + 1, getHeaders("/livez", [["X-Bad", "1"]])));
    invalid.socket.write(Buffer.concat(frames));
    await invalid.goaway;
    await invalid.closed;
    expect(await metric('parapet_http2_sessions_closed_total{reason="invalid_frames"}')).toBe(1);
    expect(await livez()).toBe(200);
  });

  it("a client that cancels 150 calls keeps its session", { timeout: 15_000 }, async () => {
    const session = http2.connect(server.url);
    session.on("error", () => {});
    let goaway = false;
    session.on("goaway", () => (goaway = true));
    for (let i = 0; i < 150; i++) {
      const stream = session.request({ ":method": "POST", ":path": "/v2/guard", "content-type": "application/json", authorization: `Bearer ${server.screeningKey}` });
      stream.on("error", () => {});
      // Once its HEADERS went out, so that the server has a stream to reset.
      if (stream.pending) await new Promise((resolve) => stream.once("ready", resolve));
      await new Promise((resolve) => stream.close(http2.constants.NGHTTP2_CANCEL, () => resolve(undefined)));
    }
    const stream = session.request({ ":path": "/livez" });
    const status = await new Promise<number>((resolve) => stream.on("response", (h) => resolve(Number(h[":status"]))));
    stream.resume();
    expect(status).toBe(200);
    expect(goaway).toBe(false);
    session.close();
  });
});
