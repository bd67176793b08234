// Field-local rules live in the proto and are enforced here, once, for every
// protocol (docs/decisions.md#validation). Every violation is reported at once.
import { createValidator, type Violation } from "@bufbuild/protovalidate";
import { pathToString } from "@bufbuild/protobuf/reflect";
import type { Interceptor } from "@connectrpc/connect";
import { ApiError } from "../errors.js";
import { resourceFieldOf } from "../http-rules.js";
import { maxJsonDepth, tooDeepJsonField } from "./json-depth.js";

export interface FieldViolation {
  /** Path rooted at the resource the client sent, e.g. `detectors[1].location`. */
  field: string;
  message: string;
  rule: string;
}

/** One line per violation, so a client sees every broken rule in one round trip. */
function violationMessage(violations: FieldViolation[]): string {
  return "validation failed: " + violations.map((v) => `${v.field || "(request)"}: ${v.message}${v.rule ? ` [${v.rule}]` : ""}`).join("; ");
}

function rooted(v: Violation, resourceField: string | null): FieldViolation {
  let field = pathToString(v.field);
  if (resourceField && (field === resourceField || field.startsWith(resourceField + "."))) {
    field = field.slice(resourceField.length + 1);
  }
  return { field, message: v.message, rule: v.ruleId };
}

/**
 * Rules that span fields, keyed by the RPC input type name. They get the
 * decoded request and return violations already rooted at the resource.
 */
export type CrossFieldRules = Record<string, (request: never) => FieldViolation[]>;

export function validationInterceptor(crossField: CrossFieldRules = {}): Interceptor {
  const validator = createValidator();
  return (next) => async (req) => {
    if (!req.stream) {
      // Before protovalidate, which recurses into the values too.
      const deep = tooDeepJsonField(req.method.input, req.message);
      if (deep) throw new ApiError("bad_request", `${deep}: free-form JSON nested deeper than ${maxJsonDepth} objects and arrays`);
      const result = validator.validate(req.method.input, req.message);
      if (result.kind === "error") throw result.error;
      const violations = result.kind === "invalid" ? result.violations.map((v) => rooted(v, resourceFieldOf(req.method))) : [];
      const extra = crossField[req.method.input.typeName];
      if (extra) violations.push(...extra(req.message as never));
      if (violations.length > 0) throw new ApiError("validation_failed", violationMessage(violations));
    }
    return next(req);
  };
}
