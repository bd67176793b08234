// GET /v1/policies and GET /v1-beta/projects (docs/api.md#listing-policies-and-projects) against the
// real service: REST with plain fetch, the generated client over Connect and over gRPC. Paging is
// checked by walking every page and comparing with what was created, so a skipped or repeated item,
// a wrong order or a cursor that ignores what was deleted or created meanwhile fails a test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { ProjectService } from "../../gen/parapet/v1/projects_pb.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
/** Policies and projects created here, in creation order. */
const policyIds: string[] = [];
const projectIds: string[] = [];

const policyBody = (name: string) => ({ name, default_threshold: "l2_very_likely", detectors: [{ type: "pii/email", location: "user::content" }] });

beforeAll(async () => {
  server = await startTestServer();
  for (let i = 0; i < 7; i++) {
    const res = await server.rest("POST", "/v1/policies", policyBody(`listed ${i}`));
    expect(res.status).toBe(200);
    policyIds.push(res.body.id);
  }
  for (let i = 0; i < 6; i++) {
    // Every other project names a policy, so listed policies have projects to show.
    const res = await server.rest("POST", "/v1-beta/projects", { name: `project ${i}`, policy_id: i % 2 ? policyIds[0] : undefined });
    expect(res.status).toBe(200);
    projectIds.push(res.body.id);
  }
});
afterAll(async () => {
  await server?.close();
});

/** Every item of a REST list, page by page; fails on a page larger than asked. */
async function walkRest(path: string, field: string, limit: number, key?: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = `?limit=${limit}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
    const res = await server.rest("GET", path + q, undefined, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body[field].length).toBeLessThanOrEqual(limit);
    // The last page says so with null, as documented, not by omitting the field.
    expect(res.body).toHaveProperty("next_cursor");
    ids.push(...res.body[field].map((x: any) => (field === "policies" ? x.policy_id : x.id)));
    cursor = res.body.next_cursor;
    pages++;
    expect(pages).toBeLessThan(50);
  } while (cursor);
  return { ids, pages };
}

describe("GET /v1/policies (REST)", () => {
  it("lists the built-in default policy first, then every policy oldest first, across pages", async () => {
    const { ids, pages } = await walkRest("/v1/policies", "policies", 3);
    expect(ids).toEqual(["policy-default", ...policyIds]);
    expect(pages).toBe(3);
  });

  it("without parameters answers one page of up to 100 with next_cursor null", async () => {
    const res = await server.rest("GET", "/v1/policies");
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.policies.map((p: any) => p.policy_id)).toEqual(["policy-default", ...policyIds]);
  });

  it("each entry is the policy as read, with the projects using it", async () => {
    const res = await server.rest("GET", "/v1/policies?limit=2");
    const first = res.body.policies[1];
    const read = await server.rest("GET", `/v1/policies/${first.policy_id}`);
    expect(first).toEqual(read.body.policy);
    expect(first.projects.map((p: any) => p.id).sort()).toEqual([projectIds[1], projectIds[3], projectIds[5]].sort());
  });

  it("read-only keys may list; screening keys may not", async () => {
    const ro = await server.readOnlyKey();
    expect((await walkRest("/v1/policies", "policies", 4, ro)).ids).toEqual(["policy-default", ...policyIds]);
    const screening = await server.rest("GET", "/v1/policies", undefined, server.screeningKey);
    expect(screening.status).toBe(403);
    expect(screening.body.error).toBe("forbidden");
    expect((await server.rest("GET", "/v1/policies", undefined, null)).status).toBe(401);
  });

  it("lists only the caller's organization", async () => {
    const other = await server.newOrg();
    const created = await server.rest("POST", "/v1/policies", policyBody("theirs"), other.platformKey);
    const theirs = await server.rest("GET", "/v1/policies", undefined, other.platformKey);
    expect(theirs.body.policies.map((p: any) => p.policy_id)).toEqual(["policy-default", created.body.id]);
    const ours = await server.rest("GET", "/v1/policies?limit=1000");
    expect(ours.body.policies.map((p: any) => p.policy_id)).not.toContain(created.body.id);
  });

  it("answers 403 when Policies V2 is off for the organization, as every policy endpoint does", async () => {
    const other = await server.newOrg();
    await server.app.repos.orgs.update(other.orgId, { features: { policies: false } });
    const res = await server.rest("GET", "/v1/policies", undefined, other.platformKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("feature_disabled");
  });
});

describe("GET /v1-beta/projects (REST)", () => {
  it("lists the default project first (even before it is stored), then every project oldest first", async () => {
    for (const limit of [1, 2, 7]) {
      const { ids } = await walkRest("/v1-beta/projects", "projects", limit);
      expect(ids, `limit=${limit}`).toEqual(["project-default", ...projectIds]);
    }
  });

  it("entries are the project as read", async () => {
    const res = await server.rest("GET", "/v1-beta/projects?limit=3");
    expect(res.body.projects[0]).toEqual({ id: "project-default", name: "Default project", policy_id: null, project_metadata: {}, action: "enforce" });
    expect(res.body.projects[2]).toEqual((await server.rest("GET", `/v1-beta/projects/${projectIds[1]}`)).body);
  });

  it("keeps the default project first, once, after it is stored by an update", async () => {
    const other = await server.newOrg();
    const mine = await server.rest("POST", "/v1-beta/projects", { name: "mine" }, other.platformKey);
    const defaultId = `project-default-${other.orgId.slice(4)}`;
    expect((await server.rest("PUT", `/v1-beta/projects/${defaultId}`, { name: "renamed default" }, other.platformKey)).status).toBe(200);
    for (const limit of [1, 2, 10]) {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await server.rest("GET", `/v1-beta/projects?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`, undefined, other.platformKey);
        ids.push(...res.body.projects.map((p: any) => p.id));
        cursor = res.body.next_cursor;
      } while (cursor);
      expect(ids).toEqual([defaultId, mine.body.id]);
    }
  });

  it("read-only keys may list", async () => {
    const ro = await server.readOnlyKey();
    expect((await walkRest("/v1-beta/projects", "projects", 100, ro)).ids).toEqual(["project-default", ...projectIds]);
  });
});

describe("paging while the list changes", () => {
  it("neither repeats nor skips items when items are created or deleted between pages", async () => {
    const other = await server.newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await server.rest("POST", "/v1-beta/projects", { name: `p${i}` }, other.platformKey)).body.id);
    const first = await server.rest("GET", "/v1-beta/projects?limit=3", undefined, other.platformKey);
    const seen: string[] = first.body.projects.map((p: any) => p.id);
    // The last item of the page (the cursor's own position) goes away, and a new one arrives.
    expect((await server.rest("DELETE", `/v1-beta/projects/${ids[1]}`, undefined, other.platformKey)).status).toBe(200);
    const late = (await server.rest("POST", "/v1-beta/projects", { name: "late" }, other.platformKey)).body.id;
    let cursor = first.body.next_cursor;
    while (cursor) {
      const res = await server.rest("GET", `/v1-beta/projects?limit=3&cursor=${cursor}`, undefined, other.platformKey);
      seen.push(...res.body.projects.map((p: any) => p.id));
      cursor = res.body.next_cursor;
    }
    expect(seen).toEqual([`project-default-${other.orgId.slice(4)}`, ids[0], ids[1], ids[2], ids[3], ids[4], late]);
  });
});

describe("hostile paging parameters (REST)", () => {
  it.each([
    ["limit=0", "limit"],
    ["limit=-1", "limit"],
    ["limit=1001", "limit"],
    ["limit=99999999999", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["cursor=%21%21%21", "cursor"],
    ["cursor=bm90IGpzb24", "cursor"],
    [`cursor=${Buffer.from(JSON.stringify(["policies", "x", "policy-1"])).toString("base64url")}`, "cursor"],
    [`cursor=${Buffer.from(JSON.stringify(["policies", 1e20, "policy-1"])).toString("base64url")}`, "cursor"],
    [`cursor=${"A".repeat(600)}`, "cursor"],
  ])("%s answers 422 naming the parameter", async (query, field) => {
    for (const path of ["/v1/policies", "/v1-beta/projects"]) {
      const res = await server.rest("GET", `${path}?${query}`);
      expect(res.status, `${path}?${query}: ${JSON.stringify(res.body)}`).toBe(422);
      expect(res.body).toMatchObject({ status: "error", error: "validation_failed", code: 422 });
      expect(res.body.message).toContain(field);
      expect(res.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("a cursor of one list is refused by the other", async () => {
    const policies = await server.rest("GET", "/v1/policies?limit=1");
    const res = await server.rest("GET", `/v1-beta/projects?cursor=${policies.body.next_cursor}`);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("cursor");
  });

  it("limit=1000 is accepted, unknown query parameters are ignored", async () => {
    const res = await server.rest("GET", "/v1/policies?limit=1000&sort=desc");
    expect(res.status).toBe(200);
    expect(res.body.policies).toHaveLength(policyIds.length + 1);
  });
});

describe.each(["connect-json", "connect-binary", "grpc"] as const)("ListPolicies and ListProjects over %s (generated client)", (protocol) => {
  it("pages through every item with nextCursor", async () => {
    const policies = rpcClient(PolicyService, server, protocol, server.platformKey);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await policies.listPolicies({ limit: 4, cursor });
      expect(page.policies.length).toBeLessThanOrEqual(4);
      seen.push(...page.policies.map((p) => p.policyId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["policy-default", ...policyIds]);

    const projects = rpcClient(ProjectService, server, protocol, await server.readOnlyKey());
    const page = await projects.listProjects({ limit: 100 });
    expect(page.projects.map((p) => p.id)).toEqual(["project-default", ...projectIds]);
    expect(page.nextCursor).toBeUndefined();
  });

  it("refuses bad limits and cursors with InvalidArgument and the validation_failed detail", async () => {
    const policies = rpcClient(PolicyService, server, protocol, server.platformKey);
    for (const req of [{ limit: 0 }, { limit: -5 }, { limit: 5000 }, { cursor: "not-a-cursor" }]) {
      const err = await policies.listPolicies(req).catch((e) => e);
      expect(err, JSON.stringify(req)).toBeInstanceOf(ConnectError);
      expect(err.code).toBe(Code.InvalidArgument);
      expect(err.rawMessage).toMatch(/limit|cursor/);
    }
  });

  it("answers PermissionDenied to a screening key", async () => {
    const projects = rpcClient(ProjectService, server, protocol, server.screeningKey);
    const err = await projects.listProjects({}).catch((e) => e);
    expect(err.code).toBe(Code.PermissionDenied);
  });
});
