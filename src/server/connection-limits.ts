// What one connection may cost (docs/configuration.md#connections): without
// these a client that connects and says nothing, trickles its headers or body,
// or holds an idle HTTP/2 session keeps a socket forever, and enough of them
// exhaust the process's file descriptors for everyone.
export interface ConnectionLimits {
  /** Open connections at most; the listener closes further ones as they arrive. */
  maxConnections: number;
  /** Open connections from one client address (an IPv6 /64) at most; further ones from it are closed as they arrive. */
  maxConnectionsPerAddress: number;
  /** A new connection must show its protocol (HTTP/1.1 or the HTTP/2 preface, or finish the TLS handshake) within this. */
  protocolTimeoutMs: number;
  /** A request's headers must arrive within this; an HTTP/2 connection must open its first stream within this. */
  headersTimeoutMs: number;
  /** A request, headers and body, must arrive within this (408 request_timeout). */
  receiveTimeoutMs: number;
  /** A connection without a request in flight is closed after this. */
  idleTimeoutMs: number;
}
