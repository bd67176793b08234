// The organization of the calling key. Every handler scopes its storage calls
// to this id, which is what keeps organizations apart.
import type { HandlerContext } from "@connectrpc/connect";
import type { Features, Organization, Organizations } from "../auth/organizations-repository.js";
import { principalKey } from "./context.js";
import { ApiError } from "./errors.js";

export async function callerOrg(ctx: HandlerContext, orgs: Organizations): Promise<Organization> {
  const principal = ctx.values.get(principalKey);
  if (!principal) throw new ApiError("unauthenticated", "missing API key");
  const org = await orgs.get(principal.orgId);
  if (!org) throw new ApiError("unauthenticated", "the organization of this API key no longer exists");
  return org;
}

const disabledMessages: Record<keyof Features, string> = {
  policies: "Policies V2 is not enabled for this organization",
  logs_analytics: "logs and analytics are not enabled for this organization",
  agentic: "the agentic feature is not enabled for this organization",
};

/** The caller's organization when it has `feature` switched on; otherwise a 403 feature_disabled. */
export async function callerOrgWith(ctx: HandlerContext, orgs: Organizations, feature: keyof Features): Promise<Organization> {
  return requireFeature(await callerOrg(ctx, orgs), feature);
}

/** `disabled` names what needs the feature when that is more than the endpoint itself. */
export function requireFeature(org: Organization, feature: keyof Features, disabled = disabledMessages[feature]): Organization {
  if (!org.features[feature]) throw new ApiError("feature_disabled", disabled);
  return org;
}
