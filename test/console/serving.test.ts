// The console's static files: served by the service itself under /console with
// content-hashed, immutable assets, a no-cache index page and a strict CSP.
// dist/console is built by test/support/global-setup.ts (scripts/build.mjs).
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsoleHandler } from "../../src/server/console.js";
import { startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** The script and stylesheet the index page names, in order. */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/console\/assets\/main-[^"]+)"/g)].map((m) => m[1]);
}

/** The tab icon the index page names. */
function iconOf(html: string): string | undefined {
  return /<link rel="icon" type="image\/svg\+xml" href="(\/console\/assets\/favicon-[A-Z0-9]{8}\.svg)">/.exec(html)?.[1];
}

describe("console files", () => {
  it("serves the index page with a strict CSP and no caching, at /console and /console/", async () => {
    for (const p of ["/console", "/console/", "/console/index.html", "/console?from=%2F%2Fevil.example", "//console"]) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-eval");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      const html = await res.text();
      // No inline code: the CSP would block it.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style/);
      expect(assetsOf(html)).toHaveLength(2);
    }
  });

  it("serves content-hashed assets as immutable, gzip-compressed when asked", async () => {
    const html = await (await fetch(server.url + "/console")).text();
    for (const a of assetsOf(html)) {
      expect(a).toMatch(/\/main-[A-Z0-9]{8}\.(js|css)$/);
      const res = await fetch(server.url + a, { headers: { "accept-encoding": "gzip" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("content-type")).toMatch(a.endsWith(".js") ? /^text\/javascript/ : /^text\/css/);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it("names an SVG tab icon served from the console, immutable like the bundles and allowed by the CSP", async () => {
    const res = await fetch(server.url + "/console");
    const icon = iconOf(await res.text());
    expect(icon).toBeDefined();
    // Favicons load under img-src: this origin is allowed, and nothing else is needed.
    expect(res.headers.get("content-security-policy")).toContain("img-src 'self'");
    const svg = await fetch(server.url + icon!);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    expect(svg.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const text = await svg.text();
    expect(text).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // No script in an image served from the API's origin.
    expect(text).not.toMatch(/<script|\bon\w+=/i);
  });

  it("keeps the first load (HTML + JS + CSS) under 300 KB compressed", async () => {
    const raw = async (p: string) => {
      // Node's fetch decodes gzip itself; read the bytes on the wire through the Content-Length.
      const res = await fetch(server.url + p, { headers: { "accept-encoding": "gzip" } });
      const body = Buffer.from(await res.arrayBuffer());
      const wire = Number(res.headers.get("content-length"));
      expect(res.headers.get("content-encoding")).toBe("gzip");
      expect(wire).toBeGreaterThan(0);
      return { wire, body };
    };
    const index = await raw("/console");
    let total = index.wire;
    for (const a of assetsOf(index.body.toString())) total += (await raw(a)).wire;
    expect(total).toBeLessThan(300 * 1024);
    expect(total).toBeGreaterThan(10 * 1024);
  });

  it("answers HEAD without a body and other methods with 405 and the Error object", async () => {
    const head = await fetch(server.url + "/console", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const method of ["POST", "PUT", "DELETE"]) {
      const res = await fetch(server.url + "/console", { method, body: method === "DELETE" ? undefined : "x" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      const body = await res.json();
      expect(body).toMatchObject({ status: "error", error: "method_not_allowed" });
    }
  });

  it("answers a missing or hostile path with 404 and the Error object", async () => {
    for (const p of ["/console/assets/nope.js", "/console/../package.json", "/console/%2e%2e/package.json", "/console/assets/../../src/app.ts", "/consolex"]) {
      const res = await fetch(server.url + p);
      expect(res.status, p).toBe(404);
      const body = await res.json();
      expect(body.error, p).toBe("route_not_found");
    }
  });

  it("does not get in the way of the API on the same port", async () => {
    const res = await server.rest("GET", "/v1-beta/projects");
    expect(res.status).toBe(200);
  });

  it("serves the raw gzip bytes that decode to the asset", async () => {
    const html = await (await fetch(server.url + "/console")).text();
    const js = assetsOf(html).find((a) => a.endsWith(".js"))!;
    const plain = Buffer.from(await (await fetch(server.url + js, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
    const { request } = await import("node:http");
    const gz = await new Promise<Buffer>((resolve, reject) => {
      request(server.url + js, { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks)));
      })
        .on("error", reject)
        .end();
    });
    expect(gunzipSync(gz).equals(plain)).toBe(true);
  });
});

describe("console handler without a build", () => {
  it("answers 404 saying the console is not built, then serves it once it is, and leaves other paths alone", async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), "parapet-console-")), "console");
    const handle = createConsoleHandler(dir);
    const http: Server = createServer((req, res) => {
      const p = (req.url ?? "/").split("?")[0];
      if (!handle(p, req, res, "req-1")) {
        res.writeHead(204);
        res.end();
      }
    });
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    try {
      const missing = await fetch(`${base}/console`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: "route_not_found", message: expect.stringContaining("not built"), request_id: "req-1" });
      expect((await fetch(`${base}/v1/policies`)).status).toBe(204);
      await mkdir(path.join(dir, "assets"), { recursive: true });
      await writeFile(path.join(dir, "index.html"), "<!doctype html><title>x</title>");
      await writeFile(path.join(dir, "assets", "main-ABCDEFGH.js"), "console.log(1)");
      const built = await fetch(`${base}/console/`);
      expect(built.status).toBe(200);
      expect(await built.text()).toContain("<title>x</title>");
      expect((await fetch(`${base}/console/assets/main-ABCDEFGH.js`)).headers.get("cache-control")).toContain("immutable");
    } finally {
      await new Promise((r) => http.close(r));
      await rm(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
