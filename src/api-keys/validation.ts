// API key rules that proto field rules cannot express. Run by the validation interceptor beside
// the proto rules, so one 422 names every violation (as for policies, src/policies/validation.ts).
import type { CreateApiKeyRequest } from "../../gen/parapet/v1/api_keys_pb.js";
import type { FieldViolation } from "../api/interceptors/validation.js";

export function apiKeyRequestViolations(r: CreateApiKeyRequest): FieldViolation[] {
  // A screening key given a scope would read as read-only while it screens like any other.
  if (r.kind === "screening" && r.scope !== undefined) {
    return [{ field: "scope", message: "applies to platform keys only; omit it for a screening key", rule: "api_key.scope_platform_only" }];
  }
  return [];
}
