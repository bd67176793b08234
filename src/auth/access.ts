// Which keys may call which RPC (docs/api.md#authentication, docs/decisions.md#keys).
//
// Derived from the contract rather than listed per path: the screening
// interface is GuardService; a method is a read when the proto marks it
// NO_SIDE_EFFECTS (GET endpoints, logs, analytics), otherwise a write.
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import type { DescMethod } from "@bufbuild/protobuf";
import { ApiKeyService } from "../../gen/parapet/v1/api_keys_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { SystemService } from "../../gen/parapet/v1/system_pb.js";

export type Audience =
  /** No key needed (server reflection: schema only, no data). */
  | "public"
  /** Management interface: platform keys. */
  | "platform"
  /** POST /v2/guard: screening keys only. */
  | "screening"
  /** Detailed results and policy health: screening keys and platform keys of either scope. */
  | "screening-or-platform";

export interface Access {
  audience: Audience;
  write: boolean;
}

const streamMethods = new Set(
  [GuardService.method.guardStream, GuardService.method.openGuardStream, GuardService.method.appendGuardStream, GuardService.method.closeGuardStream].map((m) => m.name),
);

export function accessOf(method: DescMethod): Access {
  const service = method.parent.typeName;
  if (service.startsWith("grpc.reflection.")) return { audience: "public", write: false };
  if (service === SystemService.typeName) return { audience: "screening-or-platform", write: false };
  if (service === GuardService.typeName) {
    // Restoring reads a vault entry of screening traffic (docs/sanitize.md#restore): screening keys only, as /v2/guard.
    // Streams screen and log as /v2/guard does (docs/streaming.md#authentication).
    const screeningOnly = method.name === GuardService.method.guard.name || method.name === GuardService.method.restoreText.name || streamMethods.has(method.name);
    return screeningOnly ? { audience: "screening", write: false } : { audience: "screening-or-platform", write: false };
  }
  // Listing keys is key management too (docs/api.md#api-keys): read-only keys may not see them.
  if (service === ApiKeyService.typeName) return { audience: "platform", write: true };
  return { audience: "platform", write: method.idempotency !== MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS };
}
