// Drivers for GuardStream over each protocol, one interface for the tests:
// gRPC and Connect over HTTP/2 with the generated client, REST with fetch.
import { ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { GuardService, type GuardStreamOpenSchema } from "../../../gen/parapet/v1/guard_pb.js";
import { ErrorDetailSchema } from "../../../gen/parapet/v1/errors_pb.js";
import type { TestServer } from "../../support/server.js";

export type StreamProtocol = "grpc" | "connect-h2" | "rest";
export const streamProtocols: StreamProtocol[] = ["grpc", "connect-h2", "rest"];

/** A verdict as the REST JSON shows it, whichever protocol carried it. */
export interface V {
  stream_id?: string;
  message_id: number;
  received: number;
  released_offset: number;
  detected: boolean;
  flagged: boolean;
  stop: boolean;
  closed: boolean;
  payload: { start: number; end: number; text: string; detector_type: string; message_id: number }[];
  breakdown: { detector_type: string; detected: boolean; message_id: number }[];
  request_uuid?: string;
  /** With restore_vault_id: absent otherwise. */
  restored_text?: string;
  restored_offset?: number;
}

/** An error as the tests compare it: the identifier of the contract and, on REST, the HTTP status. */
export interface E {
  error: string;
  status?: number;
  retryAfter?: string | null;
  message: string;
}

export interface Driver {
  open(req: MessageInitShape<typeof GuardStreamOpenSchema> | Record<string, unknown>): Promise<V>;
  delta(text: string): Promise<V>;
  close(): Promise<V>;
  /** Drops the connection without closing the stream (RPC), or just forgets the session (REST). */
  abort(): void;
}

class StreamError extends Error {
  constructor(readonly e: E) {
    super(`${e.error}: ${e.message}`);
  }
}

function fromRpc(v: any): V {
  return {
    stream_id: v.streamId,
    message_id: v.messageId,
    received: v.received,
    released_offset: v.releasedOffset,
    detected: v.detected,
    flagged: v.flagged,
    stop: v.stop,
    closed: v.closed,
    payload: v.payload.map((p: any) => ({ start: p.start, end: p.end, text: p.text, detector_type: p.detectorType, message_id: p.messageId })),
    breakdown: v.breakdown.map((b: any) => ({ detector_type: b.detectorType, detected: b.detected, message_id: b.messageId })),
    request_uuid: v.metadata?.requestUuid,
    restored_text: v.restoredText,
    restored_offset: v.restoredOffset,
  };
}

function fromRest(b: any): V {
  return {
    stream_id: b.stream_id,
    message_id: b.message_id ?? 0,
    received: b.received ?? 0,
    released_offset: b.released_offset ?? 0,
    detected: b.detected ?? false,
    flagged: b.flagged ?? false,
    stop: b.stop ?? false,
    closed: b.closed ?? false,
    payload: (b.payload ?? []).map((p: any) => ({ ...p, message_id: p.message_id ?? 0 })),
    breakdown: (b.breakdown ?? []).map((x: any) => ({ detector_type: x.detector_type, detected: x.detected ?? false, message_id: x.message_id ?? 0 })),
    request_uuid: b.metadata?.request_uuid,
    restored_text: b.restored_text,
    restored_offset: b.restored_offset,
  };
}

function rpcError(err: unknown): StreamError {
  const e = ConnectError.from(err);
  const detail = e.findDetails(ErrorDetailSchema)[0];
  return new StreamError({ error: detail?.error ?? `code ${e.code}`, status: detail?.httpStatus, message: e.rawMessage, retryAfter: e.metadata.get("retry-after") });
}

/** A GuardStream call over gRPC or Connect (HTTP/2), driven one message at a time. */
function rpcDriver(server: TestServer, protocol: "grpc" | "connect-h2", key: string | null): Driver {
  const auth: Interceptor[] = key === null ? [] : [(next) => (req) => (req.header.set("authorization", `Bearer ${key}`), next(req))];
  const transport =
    protocol === "grpc"
      ? createGrpcTransport({ baseUrl: server.url, interceptors: auth })
      : createConnectTransport({ baseUrl: server.url, httpVersion: "2", interceptors: auth });
  const client = createClient(GuardService, transport);
  const controller = new AbortController();
  const pending: any[] = [];
  let wake: (() => void) | null = null;
  async function* requests() {
    for (;;) {
      // Never ends on its own: the server ends the call after a close.
      while (pending.length) yield pending.shift();
      await new Promise<void>((r) => (wake = r));
      wake = null;
    }
  }
  const send = (m: any) => {
    pending.push(m);
    wake?.();
  };
  let responses: AsyncIterator<any> | null = null;
  const next = async (): Promise<V> => {
    responses ??= client.guardStream(requests(), { signal: controller.signal })[Symbol.asyncIterator]();
    try {
      const r = await responses.next();
      if (r.done) throw new StreamError({ error: "ended", message: "the server ended the stream" });
      return fromRpc(r.value);
    } catch (err) {
      if (err instanceof StreamError) throw err;
      throw rpcError(err);
    }
  };
  return {
    open: (req) => (send({ kind: { case: "open", value: req } }), next()),
    delta: (text) => (send({ kind: { case: "delta", value: { text } } }), next()),
    close: () => (send({ kind: { case: "close", value: {} } }), next()),
    abort: () => controller.abort(),
  };
}

/** Raw REST JSON body of an open: snake_case fields as the REST paths take them. */
function restOpenBody(req: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req)) out[k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase())] = v;
  return out;
}

function restDriver(server: TestServer, key: string | null): Driver & { id(): string } {
  let id = "";
  const call = async (path: string, body: unknown): Promise<V> => {
    const r = await server.rest("POST", path, body, key);
    if (r.status !== 200) {
      throw new StreamError({ error: r.body?.error, status: r.status, message: r.body?.message, retryAfter: r.headers.get("retry-after") });
    }
    return fromRest(r.body);
  };
  return {
    async open(req) {
      const v = await call("/v2/guard/streams", restOpenBody(req));
      id = v.stream_id!;
      return v;
    },
    delta: (text) => call(`/v2/guard/streams/${id}/deltas`, { text }),
    close: () => call(`/v2/guard/streams/${id}/close`, {}),
    abort: () => {},
    id: () => id,
  };
}

export function driver(server: TestServer, protocol: StreamProtocol, key: string | null = server.screeningKey): Driver {
  return protocol === "rest" ? restDriver(server, key) : rpcDriver(server, protocol, key);
}

/** Error identifiers as the contract names them, with the RPC code's identifier for each REST status. */
export async function failure(p: Promise<unknown>): Promise<E> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StreamError) return err.e;
    throw err;
  }
  throw new Error("expected the call to fail");
}
