// API key rules that proto field rules cannot express. Run by the validation interceptor beside
// the proto rules, so one 422 names every violation (as for policies, src/policies/validation.ts).
import type { CreateApiKeyRequest, UpdateApiKeyRequest } from "../../gen/parapet/v1/api_keys_pb.js";
import type { FieldViolation } from "../api/interceptors/validation.js";

/** A key's name as stored: trimmed, and null when blank (an unnamed key). */
export function keyNameOf(name: string | undefined): string | null {
  return name?.trim() || null;
}

// A name is shown in lists, logs and terminals: a control character (a newline, an escape
// sequence) would break a table row or a terminal, and is never part of a name.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

function nameViolations(name: string | undefined): FieldViolation[] {
  if (name === undefined || !controlCharacter.test(name)) return [];
  return [{ field: "name", message: "must not contain control characters or line breaks", rule: "api_key.name_printable" }];
}

export function apiKeyRequestViolations(r: CreateApiKeyRequest): FieldViolation[] {
  const violations = nameViolations(r.name);
  // A screening key given a scope would read as read-only while it screens like any other.
  if (r.kind === "screening" && r.scope !== undefined) {
    violations.push({ field: "scope", message: "applies to platform keys only; omit it for a screening key", rule: "api_key.scope_platform_only" });
  }
  return violations;
}

export function apiKeyUpdateViolations(r: UpdateApiKeyRequest): FieldViolation[] {
  return nameViolations(r.name);
}
