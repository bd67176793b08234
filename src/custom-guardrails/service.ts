// CustomGuardrailService handlers (extension; docs/custom-guardrails.md).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { CustomGuardrailSchema, type CustomGuardrail, type CustomGuardrailService } from "../../gen/parapet/v1/custom_guardrails_pb.js";
import { ApiError } from "../api/errors.js";
import { callerOrg } from "../api/tenant.js";
import type { Organizations } from "../auth/organizations-repository.js";
import { DEFAULT_GUARDRAIL_LOCATIONS } from "../screening/vocabulary.js";
import { builtinRecord, type CustomGuardrails, type GuardrailInput, type StoredGuardrail } from "./repository.js";

function guardrailMessage(g: StoredGuardrail): CustomGuardrail {
  return create(CustomGuardrailSchema, {
    id: g._id,
    name: g.name,
    patterns: g.patterns,
    labels: g.labels,
    locations: g.locations,
    judgePolicy: g.judge_policy ?? "",
    updatedAt: timestampFromDate(g.updated_at),
  });
}

function inputOf(g: CustomGuardrail): GuardrailInput {
  const judgePolicy = g.judgePolicy.trim();
  return {
    name: g.name.trim(),
    patterns: [...g.patterns],
    labels: [...g.labels],
    locations: g.locations.length > 0 ? [...g.locations] : [...DEFAULT_GUARDRAIL_LOCATIONS],
    // Absent rather than empty, so pattern-only guardrails are stored as they always were.
    ...(judgePolicy ? { judge_policy: judgePolicy } : {}),
  };
}

export function customGuardrailService(deps: { orgs: Organizations; guardrails: CustomGuardrails }): ServiceImpl<typeof CustomGuardrailService> {
  const { guardrails } = deps;
  const orgOf = (ctx: HandlerContext) => callerOrg(ctx, deps.orgs);
  const notFound = (id: string) => new ApiError("not_found", `no custom guardrail '${id}' in this organization`);
  const refuseBuiltin = (id: string) => {
    if (builtinRecord("", id))
      throw new ApiError("forbidden", `'${id}' is a built-in guardrail; it cannot be changed or deleted (docs/custom-guardrails.md#built-in-guardrails)`);
  };

  return {
    async createCustomGuardrail(req, ctx) {
      const org = await orgOf(ctx);
      return guardrailMessage(await guardrails.create(org._id, inputOf(req.customGuardrail!)));
    },
    async listCustomGuardrails(_req, ctx) {
      const org = await orgOf(ctx);
      return { customGuardrails: (await guardrails.list(org._id)).map(guardrailMessage) };
    },
    async getCustomGuardrail(req, ctx) {
      const org = await orgOf(ctx);
      const g = await guardrails.get(org._id, req.customGuardrailId);
      if (!g) throw notFound(req.customGuardrailId);
      return guardrailMessage(g);
    },
    async updateCustomGuardrail(req, ctx) {
      const org = await orgOf(ctx);
      refuseBuiltin(req.customGuardrailId);
      const g = await guardrails.update(org._id, req.customGuardrailId, inputOf(req.customGuardrail!));
      if (!g) throw notFound(req.customGuardrailId);
      return guardrailMessage(g);
    },
    async deleteCustomGuardrail(req, ctx) {
      const org = await orgOf(ctx);
      refuseBuiltin(req.customGuardrailId);
      if (!(await guardrails.delete(org._id, req.customGuardrailId))) throw notFound(req.customGuardrailId);
      return {};
    },
  };
}
