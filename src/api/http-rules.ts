// Reads the google.api.http option of each RPC: the REST layer builds its routes
// from it, and validation uses the body field to root field paths at the
// resource a REST client actually sent (proto is the single source of truth).
import { getOption, hasOption } from "@bufbuild/protobuf";
import type { DescMethod } from "@bufbuild/protobuf";
import { http } from "../../gen/google/api/annotations_pb.js";

export interface HttpRule {
  verb: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
  pathTemplate: string;
  /** "" (no body), "*" (whole request) or a top-level field name. */
  body: string;
}

export function httpRuleOf(method: DescMethod): HttpRule | null {
  if (!hasOption(method, http)) return null;
  const rule = getOption(method, http);
  switch (rule.pattern.case) {
    case "get":
      return { verb: "GET", pathTemplate: rule.pattern.value, body: rule.body };
    case "post":
      return { verb: "POST", pathTemplate: rule.pattern.value, body: rule.body };
    case "put":
      return { verb: "PUT", pathTemplate: rule.pattern.value, body: rule.body };
    case "delete":
      return { verb: "DELETE", pathTemplate: rule.pattern.value, body: rule.body };
    case "patch":
      return { verb: "PATCH", pathTemplate: rule.pattern.value, body: rule.body };
    default:
      return null;
  }
}

/** The request field that holds the resource (the http body field), if it is a single field. */
export function resourceFieldOf(method: DescMethod): string | null {
  const rule = httpRuleOf(method);
  return rule && rule.body !== "" && rule.body !== "*" ? rule.body : null;
}
