// GET /openapi.json: the OpenAPI 3.1 document of the REST paths, generated
// from the protos into gen/openapi.json by `npm run generate`
// (docs/openapi.md). Like the probes it needs no key: it describes the API
// and holds no data. The file is read once, on the first request, from the
// project root, so the compiled service and the container image serve the
// same file as `tsx`.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { projectFile } from "../paths.js";
import { sendError, type JsonResponse } from "./rest/handler.js";

export const openApiPath = "/openapi.json";

interface Response extends JsonResponse {
  end(): unknown;
  end(body: string | Buffer): unknown;
}

/** Serves `path` when it is /openapi.json (the promise settles when answered); null for any other path. */
export type OpenApiHandler = (path: string, req: IncomingMessage | Http2ServerRequest, res: Response, requestId: string) => Promise<void> | null;

export function createOpenApiHandler(file = projectFile("gen", "openapi.json")): OpenApiHandler {
  let loaded: Promise<{ body: Buffer; etag: string }> | undefined;
  const load = () =>
    (loaded ??= readFile(file).then(
      (body) => ({ body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` }),
      (err: unknown) => {
        // A later request tries again (a deployment that forgot the file and copies it in).
        loaded = undefined;
        throw new Error(`cannot read the OpenAPI document ${file}: ${String(err)}`);
      },
    ));

  return (path, req, res, requestId) => {
    if (path !== openApiPath) return null;
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendError(res, "method_not_allowed", `${req.method} is not allowed on ${path}; allowed: GET, HEAD`, requestId, { allow: "GET, HEAD" });
      return Promise.resolve();
    }
    return load().then(({ body, etag }) => {
      res.setHeader("etag", etag);
      // Revalidate on every use: the document changes with the service version.
      res.setHeader("cache-control", "no-cache");
      const ifNoneMatch = req.headers["if-none-match"];
      if (typeof ifNoneMatch === "string" && ifNoneMatch.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
        res.writeHead(304);
        res.end();
        return;
      }
      res.setHeader("content-type", "application/json");
      res.setHeader("content-length", body.length);
      res.writeHead(200);
      if (req.method === "HEAD") res.end();
      else res.end(body);
    });
  };
}
