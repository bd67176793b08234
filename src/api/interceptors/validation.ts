// Field-local rules live in the proto and are enforced here, once, for every
// protocol (docs/decisions.md#validation). Every violation is reported at once.
import { createValidator, type Violation } from "@bufbuild/protovalidate";
import { pathToString } from "@bufbuild/protobuf/reflect";
import type { Interceptor } from "@connectrpc/connect";
import { decodeViolationsKey } from "../context.js";
import { ApiError, validationFailed, type FieldViolation } from "../errors.js";
import { resourceFieldOf } from "../http-rules.js";
import { maxJsonDepth, tooDeepJsonField } from "./json-depth.js";

export type { FieldViolation } from "../errors.js";

function rooted(v: Violation, resourceField: string | null): FieldViolation {
  let field = pathToString(v.field);
  if (resourceField && (field === resourceField || field.startsWith(resourceField + "."))) {
    field = field.slice(resourceField.length + 1);
  }
  return { field, message: v.message, rule: v.ruleId };
}

/** `path` and every path that contains it: `messages[0].content`, `messages[0]`, `messages`, "". */
function withAncestors(path: string): string[] {
  const out = [path];
  for (let i = path.length - 1; i > 0; i--) if (path[i] === "." || path[i] === "[") out.push(path.slice(0, i));
  if (path !== "") out.push("");
  return out;
}

/**
 * The rule violations of a request whose wrongly typed values were taken out
 * (`decoded`): a rule about a value that is not there, or about a message one
 * of whose values is not there (content required once a wrong `content` went),
 * says nothing the type error does not, and is left out. Linear in the paths'
 * length: a request may bring thousands of each.
 */
function besides(decoded: readonly FieldViolation[], rules: FieldViolation[]): FieldViolation[] {
  const taken = new Set(decoded.map((d) => d.field));
  const around = new Set(decoded.flatMap((d) => withAncestors(d.field)));
  return rules.filter((r) => !around.has(r.field) && !withAncestors(r.field).some((p) => taken.has(p)));
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
      const decoded = req.contextValues.get(decodeViolationsKey);
      const all = decoded.length > 0 ? [...decoded, ...besides(decoded, violations)] : violations;
      if (all.length > 0) throw validationFailed(all);
    }
    return next(req);
  };
}
