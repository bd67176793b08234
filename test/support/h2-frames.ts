// HTTP/2 frames written by hand, for tests that send what no HTTP/2 client
// library would (a stream reset as soon as it is opened, thousands of times;
// frames nghttp2 rejects) and read the GOAWAY that comes back.
import net from "node:net";

export const frameType = { data: 0, headers: 1, rstStream: 3, settings: 4, goaway: 7 } as const;
export const flags = { endStream: 0x1, endHeaders: 0x4 } as const;
export const errorCode = { noError: 0, protocolError: 1, internalError: 2, cancel: 8, enhanceYourCalm: 11 } as const;

export function h2Frame(type: number, frameFlags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = frameFlags;
  head.writeUInt32BE(streamId, 5);
  return Buffer.concat([head, payload]);
}

/** HPACK without the dynamic table: GET `path` (a literal), scheme http, authority "x". */
export function getHeaders(path: string, extra: [string, string][] = []): Buffer {
  const literal = (name: string, value: string) => Buffer.concat([Buffer.from([0x00, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value)]);
  // 0x82 :method GET, 0x86 :scheme http, 0x04 literal not indexed with the name of :path, 0x01 the same for :authority.
  return Buffer.concat([
    Buffer.from([0x82, 0x86, 0x04, path.length]),
    Buffer.from(path),
    Buffer.from([0x01, 1]),
    Buffer.from("x"),
    ...extra.map(([n, v]) => literal(n, v)),
  ]);
}

export function rstStream(streamId: number, code: number = errorCode.cancel): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code);
  return h2Frame(frameType.rstStream, 0, streamId, payload);
}

export interface RawH2 {
  socket: net.Socket;
  /** Resolves with the error code of the first GOAWAY the server sends. */
  goaway: Promise<number>;
  /** Resolves when the server closes the connection. */
  closed: Promise<void>;
  isClosed(): boolean;
}

/** A cleartext HTTP/2 connection (prior knowledge) with the preface and an empty SETTINGS frame sent. */
export async function rawH2(port: number): Promise<RawH2> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("connect", resolve));
  let buffered = Buffer.alloc(0);
  let closed = false;
  const goaway = new Promise<number>((resolve) =>
    socket.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 9) {
        const length = buffered.readUIntBE(0, 3);
        if (buffered.length < 9 + length) break;
        if (buffered[3] === frameType.goaway) resolve(buffered.readUInt32BE(13));
        buffered = buffered.subarray(9 + length);
      }
    }),
  );
  const done = new Promise<void>((resolve) =>
    socket.once("close", () => {
      closed = true;
      resolve();
    }),
  );
  socket.write(Buffer.concat([Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"), h2Frame(frameType.settings, 0, 0)]));
  return { socket, goaway, closed: done, isClosed: () => closed };
}
