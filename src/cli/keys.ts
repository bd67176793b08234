// `parapet keys`: on the store directly when nothing holds it, else through the running service's
// API-key endpoints (docs/cli.md#where-each-command-runs). The API acts on the organization of the
// key it is called with, so --org there must name that organization.
import { parseArgs } from "node:util";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ApiKeyService, type ApiKey } from "../../gen/parapet/v1/api_keys_pb.js";
import { ApiKeys, type KeyKind, type KeyScope } from "../auth/api-keys-repository.js";
import { DEFAULT_ORG_ID, Organizations } from "../auth/organizations-repository.js";
import type { Database } from "../storage/collection.js";
import { ApiCallError, rpcCall } from "./api-call.js";
import { explicitTarget, missingKeyHelp, platformKey, serviceTarget, type Credential, type ServiceTarget } from "./find-service.js";
import { StoreLocked, withStore } from "./store.js";
import { actionOf, InputError, oneOf, UsageError } from "./usage.js";

type KeyRequest =
  | { action: "create"; kind: KeyKind; scope: KeyScope | null; org: string | undefined }
  | { action: "list"; org: string | undefined; includeRevoked: boolean }
  | { action: "revoke"; id: string };

interface KeyLine {
  id: string;
  org: string;
  kind: string;
  scope: string | null;
  prefix: string;
  created: Date;
  revoked: Date | null;
  lastUsed: Date | null;
}

function keyLine(k: KeyLine): string {
  const state = k.revoked ? `revoked ${k.revoked.toISOString()}` : "active";
  const used = k.lastUsed ? `last used ${k.lastUsed.toISOString()}` : "never used";
  return `${k.id}\t${k.org}\t${k.kind}\t${k.scope ?? "-"}\t${k.prefix}…\t${k.created.toISOString()}\t${state}\t${used}\n`;
}

/** The whole command line checked before the store or the service is touched. */
function requestOf(action: string | undefined, args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      kind: { type: "string" },
      scope: { type: "string" },
      org: { type: "string" },
      url: { type: "string" },
      key: { type: "string" },
      "include-revoked": { type: "boolean" },
    },
  });
  const verb = actionOf("keys", action, ["create", "list", "revoke"] as const);
  const extra = positionals.slice(verb === "revoke" ? 1 : 0);
  if (extra.length > 0) throw new UsageError(`keys ${verb}: unexpected argument '${extra[0]}'`);
  let request: KeyRequest;
  if (verb === "create") {
    const kind = oneOf<KeyKind>(values.kind, ["platform", "screening"], "--kind");
    if (kind === "screening" && values.scope) throw new UsageError("--scope applies to platform keys only");
    const scope = kind === "platform" ? oneOf<KeyScope>(values.scope ?? "read-write", ["read-write", "read-only"], "--scope") : null;
    request = { action: verb, kind, scope, org: values.org };
  } else if (verb === "list") {
    request = { action: verb, org: values.org, includeRevoked: values["include-revoked"] ?? false };
  } else {
    if (!positionals[0]) throw new UsageError("keys revoke needs KEY_ID (see parapet keys list)");
    request = { action: verb, id: positionals[0] };
  }
  return { request, url: values.url, key: values.key };
}

export async function keys(action: string | undefined, args: string[]): Promise<void> {
  const { request, url, key } = requestOf(action, args);
  // --url, PARAPET_URL or --key ask for the API; otherwise the store, unless the service holds it.
  const explicit = explicitTarget(url);
  if (explicit || key) return keysThroughApi(request, explicit ?? serviceTarget(undefined), requireKey(key, undefined));
  try {
    await withStore((db) => keysOnStore(request, db));
  } catch (err) {
    if (!(err instanceof StoreLocked)) throw err;
    // The running service holds the embedded store: the same command through its API.
    const target = serviceTarget(undefined);
    const credential = requireKey(undefined, err);
    process.stderr.write(`parapet: ${err.describeService()}: keys go through its API at ${target.url}, with the ${credential.from}\n`);
    return keysThroughApi(request, target, credential);
  }
}

function requireKey(flag: string | undefined, locked: StoreLocked | undefined): Credential {
  const credential = platformKey(flag);
  if (credential) return credential;
  if (!locked) throw new UsageError(`--url needs a read-write platform key: ${missingKeyHelp("platform")}`);
  // A correct command in an environment without a key: a failure to fix there, not a usage error.
  throw new ApiCallError(
    `${locked.describeService()} and holds the data directory, so key commands go through its API, which needs a read-write platform key: ` +
      `${missingKeyHelp("platform")}. (${locked.lockMessage})`,
  );
}

async function keysOnStore(request: KeyRequest, db: Database): Promise<void> {
  const orgs = await Organizations.open(db);
  const repo = await ApiKeys.open(db);
  if (request.action === "create") {
    const orgId = request.org ?? DEFAULT_ORG_ID;
    if (!(await orgs.get(orgId))) throw new UsageError(`no organization '${orgId}'`);
    process.stdout.write((await repo.create(orgId, request.kind, request.scope)).key + "\n");
  } else if (request.action === "list") {
    for (const k of await repo.list(request.org)) {
      if (k.revoked_at && !request.includeRevoked) continue;
      const lastUsed = k.last_used_at ?? null;
      process.stdout.write(keyLine({ id: k._id, org: k.org_id, kind: k.kind, scope: k.scope, prefix: k.prefix, created: k.created_at, revoked: k.revoked_at, lastUsed }));
    }
  } else {
    if (!(await repo.revoke(request.id))) throw new UsageError(`no active key '${request.id}'`);
    process.stdout.write(`revoked ${request.id}\n`);
  }
}

function dateOf(t: Timestamp | undefined): Date | null {
  return t ? timestampDate(t) : null;
}

function apiLine(k: ApiKey): string {
  const created = dateOf(k.createdAt) ?? new Date(0);
  return keyLine({
    id: k.id,
    org: k.orgId,
    kind: k.kind,
    scope: k.scope ?? null,
    prefix: k.prefix,
    created,
    revoked: dateOf(k.revokedAt),
    lastUsed: dateOf(k.lastUsedAt),
  });
}

/** Key commands through the running service (ApiKeyService), for the organization of the key. */
async function keysThroughApi(request: KeyRequest, target: ServiceTarget, credential: Credential): Promise<void> {
  const client: Client<typeof ApiKeyService> = createClient(
    ApiKeyService,
    createConnectTransport({
      baseUrl: target.url,
      httpVersion: "1.1",
      interceptors: [
        (next) => (req) => {
          req.header.set("authorization", `Bearer ${credential.key}`);
          return next(req);
        },
      ],
    }),
  );
  const call = <T>(fn: () => Promise<T>) => rpcCall(target, credential, fn);
  if (request.action !== "revoke" && request.org) {
    // The caller's own key is always among its organization's keys.
    const own = (await call(() => client.listApiKeys({ limit: 1 }))).apiKeys[0]?.orgId;
    if (own !== request.org) {
      throw new InputError(
        `--org ${request.org}: through the API a key manages its own organization's keys, and the ${credential.from} belongs to ${own ?? "another organization"}. ` +
          `Pass --key with a platform key of ${request.org}, or stop the service to work on the store.`,
      );
    }
  }
  if (request.action === "create") {
    const created = await call(() => client.createApiKey({ kind: request.kind, scope: request.scope ?? undefined }));
    process.stdout.write(created.key + "\n");
  } else if (request.action === "list") {
    let cursor: string | undefined;
    do {
      const page = await call(() => client.listApiKeys({ cursor, limit: 1000, includeRevoked: request.includeRevoked }));
      for (const k of page.apiKeys) process.stdout.write(apiLine(k));
      cursor = page.nextCursor;
    } while (cursor);
  } else {
    await call(() => client.revokeApiKey({ keyId: request.id }));
    process.stdout.write(`revoked ${request.id}\n`);
  }
}
