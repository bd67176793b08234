// `parapet orgs`: organizations are the operator's, not a tenant's, so they have no API; the
// command works on the store, which on the embedded engine means with the service stopped.
import { parseArgs } from "node:util";
import { Organizations, type Features } from "../auth/organizations-repository.js";
import { StoreLocked, withStore } from "./store.js";
import { actionOf, UsageError } from "./usage.js";

type OrgRequest =
  | { action: "create"; name: string }
  | { action: "list" }
  | { action: "set"; id: string; name: string | undefined; maxPolicies: number | undefined; features: Partial<Features> };

/** The whole command line checked before the store is opened. */
function requestOf(action: string | undefined, args: string[]): OrgRequest {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: "string" }, "max-policies": { type: "string" }, feature: { type: "string", multiple: true } },
  });
  const verb = actionOf("orgs", action, ["create", "list", "set"] as const);
  const extra = positionals.slice(verb === "set" ? 1 : 0);
  if (extra.length > 0) throw new UsageError(`orgs ${verb}: unexpected argument '${extra[0]}'`);
  if (verb === "create") {
    if (!values.name) throw new UsageError("orgs create needs --name");
    return { action: verb, name: values.name };
  }
  if (verb === "list") return { action: verb };
  const id = positionals[0];
  if (!id) throw new UsageError("orgs set needs ORG_ID");
  let maxPolicies: number | undefined;
  if (values["max-policies"] !== undefined) {
    maxPolicies = Number(values["max-policies"]);
    if (!/^\d+$/.test(values["max-policies"]) || !Number.isSafeInteger(maxPolicies)) throw new UsageError("--max-policies must be a whole number >= 0");
  }
  const features: Partial<Features> = {};
  for (const f of values.feature ?? []) {
    const m = /^(policies|logs_analytics|agentic)=(on|off)$/.exec(f);
    if (!m) throw new UsageError(`--feature takes NAME=on|off with NAME one of policies, logs_analytics, agentic; got '${f}'`);
    features[m[1] as keyof Features] = m[2] === "on";
  }
  return { action: verb, id, name: values.name, maxPolicies, features };
}

async function run(request: OrgRequest, orgs: Organizations): Promise<void> {
  if (request.action === "create") {
    process.stdout.write((await orgs.create(request.name))._id + "\n");
  } else if (request.action === "list") {
    for (const o of await orgs.list()) {
      const features = Object.entries(o.features)
        .map(([k, v]) => `${k}=${v ? "on" : "off"}`)
        .join(",");
      process.stdout.write(`${o._id}\t${o.name}\tdefault_project=${o.default_project_id}\tmax_policies=${o.max_policies}\t${features}\n`);
    }
  } else {
    if (!(await orgs.get(request.id))) throw new UsageError(`no organization '${request.id}'`);
    await orgs.update(request.id, { name: request.name, max_policies: request.maxPolicies, features: request.features });
    process.stdout.write(`updated ${request.id}\n`);
  }
}

export async function organizations(action: string | undefined, args: string[]): Promise<void> {
  const request = requestOf(action, args);
  try {
    await withStore(async (db) => run(request, await Organizations.open(db)));
  } catch (err) {
    if (!(err instanceof StoreLocked)) throw err;
    throw new Error(
      `orgs ${request.action}: ${err.describeService()} and holds the data directory. ` +
        `Organizations have no API (they are the operator's, not a tenant's; keys, screening and logs do go through the API): ${err.stopHint()}`,
    );
  }
}
