// A client that holds a connection open the slow way (silent, trickling its
// headers or body a byte at a time, idle after a request), over cleartext or
// TLS, and times how long the server takes to close it: for the connection
// deadline tests (test/server/connections.test.ts, test/hostile).
import net from "node:net";
import tls from "node:tls";

export interface Slow {
  kind: string;
  /** Resolves once the connection is established. */
  connected: Promise<void>;
  /** Milliseconds from connecting until the server closed the connection (Infinity if it never did). */
  closedAfter: Promise<number>;
  closed: () => boolean;
  received: () => string;
  destroy: () => void;
}

export interface SlowOptions {
  everyMs?: number;
  giveUpMs?: number;
  /** Over TLS (HTTP/1.1 by ALPN); `first` goes once the handshake is done. */
  tls?: boolean;
}

/** A connection that sends `first` at once and then one byte of `trickle` every `everyMs`, until the server closes it. */
export function slowClient(kind: string, port: number, first: string, trickle: string, options: SlowOptions = {}): Slow {
  const { everyMs = 50, giveUpMs = 10_000 } = options;
  const started = Date.now();
  const socket = options.tls ? tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false, ALPNProtocols: ["http/1.1"] }) : net.connect(port, "127.0.0.1");
  let text = "";
  let at = 0;
  socket.on("data", (d) => (text += d.toString("latin1")));
  socket.on("error", () => {});
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const connected = new Promise<void>((resolve) =>
    socket.on(options.tls ? "secureConnect" : "connect", () => {
      if (first) socket.write(first);
      timer = setInterval(() => {
        if (at < trickle.length && socket.writable) socket.write(trickle[at++]);
      }, everyMs);
      resolve();
    }),
  );
  const closedAfter = new Promise<number>((resolve) => {
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(Infinity);
    }, giveUpMs);
    socket.on("close", () => {
      closed = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve(Date.now() - started);
    });
  });
  return { kind, connected, closedAfter, closed: () => closed, received: () => text, destroy: () => socket.destroy() };
}
