// One port for every protocol (docs/decisions.md#one-port).
//
// gRPC needs HTTP/2; curl, fetch and gRPC-Web clients mostly speak HTTP/1.1.
// Node's http2.createServer({allowHTTP1}) accepts HTTP/1.1 only over TLS
// (ALPN), so on cleartext each connection's first bytes are sniffed: the
// HTTP/2 connection preface goes to an http2 server, anything else to an http
// server. Over TLS, ALPN decides and the decrypted socket goes to the same two
// servers: Node's http2.createSecureServer({allowHTTP1}) runs HTTP/1.1 on its
// own connection handling with its own defaults (headers 60 s checked every
// 30 s, a body 300 s, no idle close at all) and none of the settings below, so
// TLS connections escaped every deadline. Both servers run the same request
// handler. Each stage has its own
// deadline (connection-limits.ts): reaching the protocol decision here, then
// headers, body and idle time in http1-server.ts and http2-deadlines.ts.
import { readFileSync } from "node:fs";
import type http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import tls from "node:tls";
import type { Logger } from "../observability/logger.js";
import type { Metrics } from "../observability/metrics.js";
import { AddressCap, clientOf } from "./address-cap.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { createHttp1Server } from "./http1-server.js";
import { http2SessionOptions, limitHttp2Abuse } from "./http2-abuse-limits.js";
import { enforceHttp2Deadlines } from "./http2-deadlines.js";

export type NodeHandler = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => void;

export interface ListenOptions {
  host: string;
  port: number;
  handler: NodeHandler;
  tls?: { certFile: string; keyFile: string };
  limits: ConnectionLimits;
  log?: Logger;
  metrics?: Metrics;
}

export interface Listener {
  port: number;
  /** Stops accepting connections; resolves when open connections have ended (or were closed after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * Cleartext: one port for HTTP/1.1 and HTTP/2 with prior knowledge. Node's
 * http2 server does not accept HTTP/1.1 without TLS, so the first bytes decide:
 * the HTTP/2 preface goes to `h2`, anything else to `h1`.
 */
function sniffingFront(h1: http.Server, h2: http2.Http2Server, protocolTimeoutMs: number): net.Server {
  return net.createServer((socket) => {
    let seen: Buffer = Buffer.alloc(0);
    // Absolute, not inactivity: a byte every few seconds must not stretch the 24-byte preface forever.
    const undecided = setTimeout(() => socket.destroy(), protocolTimeoutMs);
    socket.once("close", () => clearTimeout(undecided));
    const onData = (chunk: Buffer) => {
      seen = seen.length ? Buffer.concat([seen, chunk]) : chunk;
      const n = Math.min(seen.length, PREFACE.length);
      const looksH2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
      if (looksH2 && seen.length < PREFACE.length) return;
      clearTimeout(undecided);
      socket.removeListener("data", onData);
      socket.pause();
      socket.unshift(seen);
      (looksH2 ? h2 : h1).emit("connection", socket);
      process.nextTick(() => socket.resume());
    };
    socket.on("data", onData);
    socket.on("error", () => socket.destroy());
  });
}

/**
 * TLS: ALPN picks the protocol ("h2", or HTTP/1.1 for "http/1.1" and clients
 * that offer none, as allowHTTP1 did), and the handshake must finish within
 * the protocol timeout.
 */
function tlsFront(h1: http.Server, h2: http2.Http2Server, files: { certFile: string; keyFile: string }, protocolTimeoutMs: number): tls.Server {
  const server = tls.createServer({
    cert: readFileSync(files.certFile),
    key: readFileSync(files.keyFile),
    ALPNProtocols: ["h2", "http/1.1"],
    handshakeTimeout: protocolTimeoutMs,
  });
  server.on("secureConnection", (socket: tls.TLSSocket) => (socket.alpnProtocol === "h2" ? h2 : h1).emit("connection", socket));
  // A failed or timed-out handshake: tls.Server reports it and leaves the socket open.
  server.on("tlsClientError", (_err: Error, socket: tls.TLSSocket) => socket.destroy());
  return server;
}

/**
 * Counts a refused connection, and says so in the log at most once a minute:
 * behind a proxy every connection has the proxy's address, and an operator
 * who left the per-address cap at its default needs to find out why.
 */
function refusalReporter(options: ListenOptions, limits: ConnectionLimits) {
  let lastLogged = 0;
  let unlogged = 0;
  return (reason: "max_connections" | "per_address", address: string | undefined) => {
    options.metrics?.connectionsRefused.inc({ reason });
    unlogged++;
    const now = Date.now();
    if (now - lastLogged < 60_000) return;
    const setting =
      reason === "per_address" ? `PARAPET_MAX_CONNECTIONS_PER_ADDRESS=${limits.maxConnectionsPerAddress}` : `PARAPET_MAX_CONNECTIONS=${limits.maxConnections}`;
    options.log?.warn(
      { reason, client: clientOf(address), refused: unlogged },
      `connection refused at the cap (${setting}); further refusals this minute are only counted`,
    );
    lastLogged = now;
    unlogged = 0;
  };
}

export async function listen(options: ListenOptions): Promise<Listener> {
  const sockets = new Set<net.Socket>();
  const { limits } = options;
  const h1 = createHttp1Server(options.handler, limits, options.log, options.metrics);
  // Cleartext or TLS, the same server: sessions run over whatever socket they are handed.
  const h2 = http2.createServer(http2SessionOptions, options.handler as never);
  enforceHttp2Deadlines(h2, limits);
  limitHttp2Abuse(h2, options.metrics, options.log);

  // HTTP/1.1 sockets and their in-flight requests. http.Server only tracks
  // connections for closeIdleConnections() when it listens itself, which it
  // never does here (sockets are handed to it), so idle keep-alive sockets are
  // tracked by hand to let close() finish.
  const h1Sockets = new Map<net.Socket, number>();
  let closing = false;
  h1.on("connection", (socket: net.Socket) => {
    h1Sockets.set(socket, 0);
    socket.once("close", () => h1Sockets.delete(socket));
  });
  h1.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    h1Sockets.set(socket, (h1Sockets.get(socket) ?? 0) + 1);
    if (closing && !res.headersSent) res.setHeader("connection", "close");
    res.once("close", () => {
      const left = (h1Sockets.get(socket) ?? 1) - 1;
      h1Sockets.set(socket, left);
      if (closing && left === 0) socket.destroy();
    });
  });

  const sessions = new Set<http2.Http2Session>();
  h2.on("session", (session: http2.Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });

  const front: net.Server = options.tls ? tlsFront(h1, h2, options.tls, limits.protocolTimeoutMs) : sniffingFront(h1, h2, limits.protocolTimeoutMs);
  const refused = refusalReporter(options, limits);
  // Beyond the cap Node closes new connections as they are accepted.
  front.maxConnections = limits.maxConnections;
  front.on("drop", (data?: { remoteAddress?: string }) => refused("max_connections", data?.remoteAddress));
  const perAddress = new AddressCap(limits.maxConnectionsPerAddress);
  front.on("connection", (socket: net.Socket) => {
    if (!perAddress.admit(socket)) {
      socket.destroy();
      refused("per_address", socket.remoteAddress);
      return;
    }
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    front.once("error", reject);
    front.listen(options.port, options.host, () => resolve());
  });
  const address = front.address() as net.AddressInfo;

  return {
    port: address.port,
    async close(graceMs = 10_000) {
      closing = true;
      const closed = new Promise<void>((resolve) => front.close(() => resolve()));
      // Idle keep-alive connections would hold close() open forever.
      for (const [socket, inFlight] of h1Sockets) if (inFlight === 0) socket.destroy();
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, graceMs);
      timer.unref();
      // HTTP/2 sessions send GOAWAY and end once their open streams finish.
      for (const session of sessions) session.close();
      await closed;
      clearTimeout(timer);
    },
  };
}
