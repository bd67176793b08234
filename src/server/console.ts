// The browser console (docs/console.md) as static files under /console: the
// index page and content-hashed assets built by scripts/build.mjs into
// dist/console. The console is a client of the public API like any other, so
// this module only serves files; it never touches storage or keys.
import { readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { sendError } from "./rest/handler.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

const CONSOLE_PREFIX = "/console";

/**
 * Scripts and styles from this origin only (no inline code: the page is one
 * <script src> and one <link>), API calls to this origin only, and no framing.
 * uPlot and Preact set styles through the CSSOM, which style-src does not restrict.
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
};

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
  cache: string;
}

/** Every file of the built console, read once: the whole console is a few hundred kilobytes. */
function load(dir: string): Map<string, Asset> | null {
  try {
    return readAll(dir);
  } catch {
    // Missing, or removed while being read (a rebuild): answered as not built, looked for again next time.
    return null;
  }
}

function readAll(dir: string): Map<string, Asset> | null {
  if (!statSync(path.join(dir, "index.html")).isFile()) return null;
  const files = new Map<string, Asset>();
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath ?? e.path, e.name);
    const rel = "/" + path.relative(dir, full).split(path.sep).join("/");
    const body = readFileSync(full);
    // Hashed names change with their content, so they may be kept for good; the
    // index page names the current hashes and must be revalidated every time.
    const cache = rel === "/index.html" ? "no-cache" : "public, max-age=31536000, immutable";
    files.set(rel, { type: types[path.extname(rel)] ?? "application/octet-stream", body, gzip: gzipSync(body, { level: 9 }), cache });
  }
  return files;
}

export type ConsoleHandler = (path: string, req: Req, res: Res, requestId: string) => boolean;

/** Serves `dir` (dist/console) under /console; answers false for paths outside it. */
export function createConsoleHandler(dir: string): ConsoleHandler {
  let files: Map<string, Asset> | null = null;
  return (urlPath, req, res, requestId) => {
    if (urlPath !== CONSOLE_PREFIX && !urlPath.startsWith(CONSOLE_PREFIX + "/")) return false;
    // Loaded on first use (and looked for again while missing) so a service built without the
    // console still starts, and serves it once it is built.
    files ??= load(dir);
    if (files === null) {
      sendError(res, "route_not_found", "the console is not built: run `npm run build`", requestId);
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      sendError(res, "method_not_allowed", `${req.method} is not allowed on ${urlPath}; allowed: GET, HEAD`, requestId, { allow: "GET, HEAD" });
      return true;
    }
    const rel = urlPath.slice(CONSOLE_PREFIX.length);
    // Page routes are in the fragment (/console#/logs); any other path is a missing file.
    const asset = rel === "" || rel === "/" || rel === "/index.html" ? files.get("/index.html") : files.get(rel);
    if (!asset) {
      sendError(res, "route_not_found", `no console file ${urlPath}`, requestId);
      return true;
    }
    const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    const body = gzip ? asset.gzip : asset.body;
    res.setHeader("content-type", asset.type);
    res.setHeader("cache-control", asset.cache);
    res.setHeader("vary", "accept-encoding");
    res.setHeader("content-length", String(body.length));
    if (gzip) res.setHeader("content-encoding", "gzip");
    res.setHeader("content-security-policy", CONSOLE_CSP);
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("referrer-policy", "no-referrer");
    res.setHeader("x-frame-options", "DENY");
    res.writeHead(200);
    if (req.method === "HEAD") res.end();
    else res.end(body);
    return true;
  };
}
