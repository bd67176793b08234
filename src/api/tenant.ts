// The organization of the calling key. Every handler scopes its storage calls
// to this id, which is what keeps organizations apart.
import type { HandlerContext } from "@connectrpc/connect";
import type { Organization, Organizations } from "../auth/organizations.js";
import { principalKey } from "./context.js";
import { ApiError } from "./errors.js";

export async function callerOrg(ctx: HandlerContext, orgs: Organizations): Promise<Organization> {
  const principal = ctx.values.get(principalKey);
  if (!principal) throw new ApiError("unauthenticated", "missing API key");
  const org = await orgs.get(principal.orgId);
  if (!org) throw new ApiError("unauthenticated", "the organization of this API key no longer exists");
  return org;
}
