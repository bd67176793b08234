// Sanitize and RestoreText through the generated client over Connect (JSON and
// binary), gRPC and gRPC-Web, on a real server: the same answers and the same
// error codes, with the ErrorDetail, as REST.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { rpcClient, rpcProtocols, type TestServer } from "../support/server.js";
import { startVaultServer } from "./support.js";

let server: TestServer;

beforeAll(async () => {
  server = await startVaultServer();
});
afterAll(async () => {
  await server?.close();
});

const EMAIL = "jane.doe@example.com";

async function rpcError(p: Promise<unknown>): Promise<{ code: Code; error?: string }> {
  try {
    await p;
  } catch (e) {
    const err = ConnectError.from(e);
    return { code: err.code, error: err.findDetails(ErrorDetailSchema)[0]?.error };
  }
  throw new Error("expected an error");
}

describe.each(rpcProtocols)("%s", (protocol) => {
  it("reversible round trip with content parts and a tool call", async () => {
    const client = rpcClient(GuardService, server, protocol, server.screeningKey);
    const res = await client.guard({
      sanitize: { mode: "reversible" },
      messages: [
        { role: "user", contentParts: [{ type: "text", text: `mail ${EMAIL}` }, { type: "image_url" }] },
        { role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "send", arguments: JSON.stringify({ to: EMAIL }) } }] },
      ],
    });
    expect(res.sanitizedSpans).toBe(2);
    expect(res.sanitizedMessages[0].contentParts.map((p) => p.text)).toEqual(["mail [EMAIL_1]", undefined]);
    expect(JSON.parse(res.sanitizedMessages[1].toolCalls[0].function!.arguments!)).toEqual({ to: "[EMAIL_1]" });
    expect(res.vaultId).toMatch(/^vlt_/);
    expect(Number(res.vaultExpiresAt!.seconds) * 1000).toBeGreaterThan(Date.now() + 86_000_000);
    const r = await client.restoreText({ vaultId: res.vaultId!, text: "Done, [EMAIL_1] has it." });
    expect({ text: r.text, restored: r.restored, unknown: r.unknown }).toEqual({ text: `Done, ${EMAIL} has it.`, restored: 1, unknown: 0 });
  });

  it("without sanitize the answer has none of the sanitize fields; mask mode has no vault fields", async () => {
    const client = rpcClient(GuardService, server, protocol, server.screeningKey);
    const messages = [{ role: "user", content: `mail ${EMAIL}` }];
    const res = await client.guard({ messages });
    expect(res.sanitizedMessages).toEqual([]);
    expect(res.sanitizedSpans).toBeUndefined();
    expect(res.vaultId).toBeUndefined();
    expect(res.vaultExpiresAt).toBeUndefined();
    const masked = await client.guard({ messages, sanitize: { mode: "mask" } });
    expect(masked.sanitizedMessages.map((m) => m.content)).toEqual(["mail [EMAIL_1]"]);
    expect(masked.sanitizedSpans).toBe(1);
    expect(masked.vaultId).toBeUndefined();
    expect(masked.vaultExpiresAt).toBeUndefined();
    const results = await client.getGuardResults({ messages, sanitize: { mode: "reversible" } });
    expect(results.sanitizedMessages.map((m) => m.content)).toEqual(["mail [EMAIL_1]"]);
    expect(results.vaultId).toMatch(/^vlt_/);
    expect((await client.getGuardResults({ messages })).sanitizedSpans).toBeUndefined();
  });

  it("errors carry the contract's codes and identifiers", async () => {
    const client = rpcClient(GuardService, server, protocol, server.screeningKey);
    expect(await rpcError(client.restoreText({ vaultId: "vlt_" + "B".repeat(32), text: "[EMAIL_1]" }))).toEqual({ code: Code.NotFound, error: "not_found" });
    expect(await rpcError(client.restoreText({ vaultId: "bad", text: "x" }))).toEqual({ code: Code.InvalidArgument, error: "validation_failed" });
    const other = await server.newOrg();
    const mine = await client.guard({ sanitize: { mode: "reversible" }, messages: [{ role: "user", content: `mail ${EMAIL}` }] });
    const theirs = rpcClient(GuardService, server, protocol, other.screeningKey);
    expect(await rpcError(theirs.restoreText({ vaultId: mine.vaultId!, text: "[EMAIL_1]" }))).toEqual({ code: Code.NotFound, error: "not_found" });
    if (protocol === "grpc") {
      // Over the body limit (1 MiB): refused by the framework before the handler, as every RPC. Over HTTP/1.1 the
      // generated client does not read an answer given before it finished sending; the Connect test below uses fetch.
      expect((await rpcError(client.restoreText({ vaultId: mine.vaultId!, text: "[EMAIL_1]".repeat(200_000) }))).code).toBe(Code.ResourceExhausted);
    }
    const platform = rpcClient(GuardService, server, protocol, server.platformKey);
    expect(await rpcError(platform.restoreText({ vaultId: mine.vaultId!, text: "x" }))).toEqual({ code: Code.PermissionDenied, error: "forbidden" });
  });
});

describe("Connect over HTTP/1.1 with plain fetch", () => {
  it("a restore body over the limit answers resource_exhausted with payload_too_large", async () => {
    const res = await fetch(`${server.url}/parapet.v1.GuardService/RestoreText`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.screeningKey}` },
      body: JSON.stringify({ vaultId: "vlt_" + "A".repeat(32), text: "[EMAIL_1]".repeat(200_000) }),
    });
    const body = await res.json();
    expect(res.status).toBe(429); // Connect's HTTP status for resource_exhausted
    expect(body.code).toBe("resource_exhausted");
    expect(JSON.stringify(body.details)).toContain("payload_too_large");
  });
});

describe("custom guardrail and override_deny spans", () => {
  it("are replaced only with include_custom, as [CUSTOM_n], overlapping PII merged into the outer span", async () => {
    const policy = await server.rest("POST", "/v1/policies", {
      name: "sanitize custom",
      default_threshold: "l1_confident",
      detectors: [
        { type: "pii/email", location: "user::content" },
        { type: "override_deny", location: "user::content", override_list: ["project falcon", "contact jane.doe@example.com now"] },
      ],
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    const project = await server.rest("POST", "/v1-beta/projects", { name: "sanitize custom", policy_id: policy.body.id });
    expect(project.status).toBe(200);
    const client = rpcClient(GuardService, server, "connect-json", server.screeningKey);
    const content = `About Project Falcon: contact ${EMAIL} now, or ${"bob@example.org"}.`;
    const plain = await client.guard({ projectId: project.body.id, sanitize: { mode: "mask" }, messages: [{ role: "user", content }] });
    expect(plain.sanitizedMessages[0].content).toBe("About Project Falcon: contact [EMAIL_1] now, or [EMAIL_2].");
    const all = await client.guard({ projectId: project.body.id, sanitize: { mode: "mask", includeCustom: true }, messages: [{ role: "user", content }] });
    expect(all.sanitizedMessages[0].content).toBe("About [CUSTOM_1]: [CUSTOM_2], or [EMAIL_1].");
  });
});
