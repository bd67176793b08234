// An Authorization header without the Bearer scheme (docs/api.md#authentication): a bare key,
// as HTTP clients' "API key" settings send it, or another scheme, is refused with a message
// that names the Bearer scheme, on every protocol — never as a missing key, never accepted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { rpcClientWithAuthorization, rpcProtocols, startTestServer, type Protocol, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const guardBody = { messages: [{ role: "user", content: "hello" }] };

async function restWith(authorization: string) {
  const res = await fetch(`${server.url}/v2/guard`, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify(guardBody) });
  return { status: res.status, body: (await res.json()) as { error: string; message: string } };
}

/** A generated client whose every call carries `authorization` exactly as given. */
const rpcWith = (protocol: Protocol, authorization: string) => rpcClientWithAuthorization(GuardService, server, protocol, authorization);

describe("Authorization without the Bearer scheme", () => {
  it("a bare valid key is refused on REST, saying the Bearer scheme is expected", async () => {
    const res = await restWith(server.screeningKey);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthenticated");
    expect(res.body.message).toMatch(/Bearer scheme is expected/);
    expect(res.body.message).not.toMatch(/missing API key/);
    // The key itself is never echoed.
    expect(res.body.message).not.toContain(server.screeningKey);
  });

  it("another scheme is named, and the Bearer scheme asked for", async () => {
    const res = await restWith(`Basic ${Buffer.from("user:pass").toString("base64")}`);
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/^unsupported authorization scheme 'Basic': the Bearer scheme is expected; send 'Authorization: Bearer <API_KEY>'$/);
  });

  it("a scheme that is not a token, or a long one, is not echoed", async () => {
    for (const header of [`${"x".repeat(500)} key`, "B@d!scheme key"]) {
      const res = await restWith(header);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("unsupported authorization scheme: the Bearer scheme is expected; send 'Authorization: Bearer <API_KEY>'");
    }
  });

  it("'Bearer' with no key, or two, says so", async () => {
    for (const header of ["Bearer", `Bearer ${server.screeningKey} extra`]) {
      const res = await restWith(header);
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/names the Bearer scheme but no single key/);
    }
  });

  it("no header at all is still a missing key, and a Bearer key still works", async () => {
    const none = await fetch(`${server.url}/v2/guard`, { method: "POST", body: JSON.stringify(guardBody) });
    expect(((await none.json()) as { message: string }).message).toMatch(/^missing API key/);
    expect((await restWith(`bearer ${server.screeningKey}`)).status).toBe(200);
  });

  it.each(rpcProtocols)("%s: a bare key is refused with the same message and the ErrorDetail", async (protocol) => {
    const err = await rpcWith(protocol, server.screeningKey)
      .guard(guardBody)
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    expect(err?.code).toBe(Code.Unauthenticated);
    expect(err?.rawMessage).toMatch(/Bearer scheme is expected/);
    expect(err?.findDetails(ErrorDetailSchema)[0]).toMatchObject({ error: "unauthenticated", httpStatus: 401 });
  });
});
