// GuardStream, the bidirectional call (gRPC, Connect; docs/streaming.md): its
// messages to the open stream and its verdicts back, the call's idle expiry,
// and the stream of a call that ends without a close logged as it stands.
import { createValidator } from "@bufbuild/protovalidate";
import { pathToString } from "@bufbuild/protobuf/reflect";
import { ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { v7 as uuidv7 } from "uuid";
import { GuardStreamOpenSchema, type GuardService, type GuardStreamOpen, type GuardStreamRequest } from "../../../gen/parapet/v1/guard_pb.js";
import { requestIdOf } from "../../api/context.js";
import { ApiError, frameworkError, toConnectError, validationFailed } from "../../api/errors.js";
import { maxJsonDepth, tooDeepJsonField } from "../../api/interceptors/json-depth.js";
import type { GuardDeps } from "../deps.js";
import { stepDeadline } from "./deadline.js";
import type { OpenStream } from "./open-stream.js";
import type { StreamOpener } from "./opener.js";

export function guardStreamHandler(opener: StreamOpener, deps: Pick<GuardDeps, "requestTimeoutMs" | "limits">): ServiceImpl<typeof GuardService>["guardStream"] {
  const validator = createValidator();
  const idleS = Math.round(deps.limits.idleMs / 1000);

  /** The open message is checked here: the validation interceptor sees only unary requests. */
  function validateOpen(req: GuardStreamOpen): void {
    const deep = tooDeepJsonField(GuardStreamOpenSchema, req);
    if (deep) throw new ApiError("bad_request", `open.${deep}: free-form JSON nested deeper than ${maxJsonDepth} objects and arrays`);
    const result = validator.validate(GuardStreamOpenSchema, req);
    if (result.kind === "error") throw result.error;
    if (result.kind === "invalid") {
      throw validationFailed(result.violations.map((v) => ({ field: `open.${pathToString(v.field)}`, message: v.message, rule: v.ruleId })));
    }
  }

  function idle<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError("timeout", `no message for ${idleS} s: the stream expired`)), deps.limits.idleMs);
    });
    return Promise.race([p, expired]).finally(() => clearTimeout(timer));
  }

  return async function* guardStream(requests, ctx) {
    const requestId = requestIdOf(ctx) ?? uuidv7();
    let stream: OpenStream | undefined;
    const onAbort = () => void stream?.abandon(requestId);
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const it = requests[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await idle(it.next()).catch((err: unknown) => {
          // Decoding the client's messages (envelopes, compression, protobuf) failed: the client's error, as on unary calls.
          throw err instanceof ConnectError ? frameworkError(err, requestId) : err;
        });
        // The client half-closed without a close message: the same as one.
        if (next.done) {
          if (stream) yield await stepDeadline(deps.requestTimeoutMs, () => stream!.close(requestId));
          return;
        }
        const m: GuardStreamRequest = next.value;
        if (m.kind.case === "open") {
          if (stream) throw new ApiError("bad_request", "the stream is open already: send deltas, then close");
          validateOpen(m.kind.value);
          const req = m.kind.value;
          stream = await stepDeadline(deps.requestTimeoutMs, () => opener.open(ctx, req));
          yield stream.openVerdict();
        } else if (m.kind.case === "delta" || m.kind.case === "close") {
          if (!stream) throw new ApiError("bad_request", "the first message of a stream must be `open`");
          if (m.kind.case === "close") {
            yield await stepDeadline(deps.requestTimeoutMs, () => stream!.close(requestId));
            return;
          }
          yield await stream.delta(m.kind.value.text);
        } else {
          throw validationFailed([{ field: "", message: "a stream message sets one of open, delta or close", rule: "" }]);
        }
      }
    } catch (err) {
      throw toConnectError(err, requestId);
    } finally {
      ctx.signal.removeEventListener("abort", onAbort);
      if (stream) await stream.abandon(requestId);
    }
  };
}
