// Compressed REST bodies (docs/api.md#compressed-bodies): gzip, deflate and br are read, the
// body limit applies after decompression and decompression stops at the limit, so a zip bomb
// answers 413 without being inflated; other codings answer 415 naming the coding, and data
// that does not decode in its coding 400 naming it.
import net from "node:net";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { parseHttp1 } from "../../support/wire.js";

let server: TestServer;
let small: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  small = await startTestServer({ PARAPET_MAX_BODY_BYTES: "2048" });
});
afterAll(async () => {
  await server?.close();
  await small?.close();
});

const email = "jane.doe@example.com";
const screened = JSON.stringify({ messages: [{ role: "user", content: `write to ${email}` }], payload: true });

async function post(target: TestServer, encoding: string | null, body: Uint8Array) {
  const headers: Record<string, string> = { authorization: `Bearer ${target.screeningKey}`, "content-type": "application/json" };
  if (encoding !== null) headers["content-encoding"] = encoding;
  const res = await fetch(`${target.url}/v2/guard`, { method: "POST", headers, body: Buffer.from(body) });
  return { status: res.status, body: await res.json() };
}

/**
 * A gzip bomb: one gzip member of 16 MiB of zeros (about 16 KB), repeated. A gzip file may
 * hold several members, read one after the other, so `members` copies inflate to
 * `members` x 16 MiB.
 */
function gzipBomb(members: number): Buffer {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: members }, () => member));
}

describe("content codings that are read", () => {
  it.each([
    ["gzip", gzipSync],
    ["x-gzip", gzipSync],
    ["GZIP", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
    ["gzip, identity", gzipSync],
    ["identity", (b: Buffer) => b],
  ])("%s: the body is decompressed and screened", async (encoding, compress) => {
    const res = await post(server, encoding, compress(Buffer.from(screened)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payload.find((p: any) => p.detector_type === "pii/email")?.text).toBe(email);
  });

  it("an empty body is empty in any coding", async () => {
    const res = await post(server, "gzip", new Uint8Array(0));
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("validation_failed");
  });

  it("the limit applies after decompression: a small gzip of a large body is 413", async () => {
    const big = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(3000) }] });
    const compressed = gzipSync(Buffer.from(big));
    expect(compressed.length).toBeLessThan(2048);
    const res = await post(small, "gzip", compressed);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: "payload_too_large", message: "request body exceeds 2048 bytes once decompressed (Content-Encoding: gzip)" });
    const fits = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(1500) }] });
    expect((await post(small, "gzip", gzipSync(Buffer.from(fits)))).status).toBe(200);
  });
});

describe("zip bombs", () => {
  it("gzip inflating to 960 MiB: 413, without holding it in memory", async () => {
    const bomb = gzipBomb(60);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    const res = await post(server, "gzip", bomb);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/once decompressed \(Content-Encoding: gzip\)/);
    // The service runs in this process: inflating the bomb would have taken a gigabyte.
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024);
  });

  it("brotli of 405 bytes inflating to 256 MiB: 413", async () => {
    const bomb = brotliCompressSync(Buffer.alloc(256 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    expect(bomb.length).toBeLessThan(1024);
    const res = await post(server, "br", bomb);
    expect(res.status).toBe(413);
  });

  it("answers 413 while the bomb is still arriving: decompression streams and stops at the limit", async () => {
    const port = Number(new URL(server.url).port);
    // 64 KiB of the bomb (about 64 MiB inflated), sent without the body's last chunk: the body never ends.
    const part = gzipBomb(5).subarray(0, 64 * 1024);
    const answer = await new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1");
      let text = "";
      socket.on("error", reject);
      socket.on("data", (d) => {
        text += d.toString("latin1");
        const head = text.indexOf("\r\n\r\n");
        if (head === -1) return;
        const parsed = parseHttp1(text);
        if (text.length < head + 4 + Number(parsed.headers["content-length"] ?? 0)) return;
        socket.destroy();
        resolve({ ...parsed, body: text.slice(head + 4) });
      });
      socket.write(
        `POST /v2/guard HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\n` +
          `authorization: Bearer ${server.screeningKey}\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      socket.write(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]));
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "payload_too_large" });
    // The rest of the body is still on its way: the connection cannot be reused.
    expect(answer.headers.connection).toBe("close");
  });
});

describe("codings that are not read", () => {
  it.each([
    ["zstd", "Content-Encoding 'zstd' is not supported: send the body uncompressed or as gzip, deflate or br"],
    ["compress", "Content-Encoding 'compress' is not supported: send the body uncompressed or as gzip, deflate or br"],
    ["__proto__", "Content-Encoding '__proto__' is not supported: send the body uncompressed or as gzip, deflate or br"],
    ["x".repeat(300), "Content-Encoding is not supported: send the body uncompressed or as gzip, deflate or br"],
    ["gzip, gzip", "Content-Encoding lists 2 content codings; send the body uncompressed or in one of gzip, deflate or br"],
    [Array(500).fill("gzip").join(","), "Content-Encoding lists 500 content codings; send the body uncompressed or in one of gzip, deflate or br"],
  ])("%s: 415 naming the coding", async (encoding, message) => {
    const res = await post(server, encoding, Buffer.from(screened));
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ status: "error", error: "unsupported_encoding", code: 415, message });
  });
});

describe("data that does not decode in its coding", () => {
  const gz = gzipSync(Buffer.from(screened));
  it.each([
    ["truncated gzip", "gzip", gz.subarray(0, gz.length - 12), /^request body is not valid gzip data \(Content-Encoding: gzip\): unexpected end of file$/],
    ["gzip cut inside its header", "gzip", gz.subarray(0, 5), /not valid gzip data/],
    ["plain JSON labelled gzip", "gzip", Buffer.from(screened), /not valid gzip data \(Content-Encoding: gzip\): incorrect header check/],
    ["gzip labelled deflate", "deflate", gz, /not valid deflate data/],
    ["gzip labelled br", "br", gz, /not valid br data/],
    ["random bytes as br", "br", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), /not valid br data/],
  ])("%s: 400 naming the coding", async (_, encoding, body, message) => {
    const res = await post(server, encoding, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
    expect(res.body.message).toMatch(message);
  });

  it("a compressed body that is not JSON is malformed JSON", async () => {
    const res = await post(server, "gzip", gzipSync(Buffer.from("{not json")));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("malformed_json");
  });
});
