// The one place where RPC services are registered. Every protocol — gRPC,
// gRPC-Web, Connect and REST — serves exactly these routes through the same
// interceptors. The implementations are handed in by the composition root
// (app.ts); this module knows the services' descriptors only.
import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { AnalyticsService } from "../../gen/parapet/v1/analytics_pb.js";
import { ApiKeyService } from "../../gen/parapet/v1/api_keys_pb.js";
import { file_parapet_v1_errors } from "../../gen/parapet/v1/errors_pb.js";
import { CustomGuardrailService } from "../../gen/parapet/v1/custom_guardrails_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { LogService } from "../../gen/parapet/v1/logs_pb.js";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { PolicyDraftService } from "../../gen/parapet/v1/policy_drafts_pb.js";
import { ProjectService } from "../../gen/parapet/v1/projects_pb.js";
import { RetiredPolicyService } from "../../gen/parapet/v1/retired_policies_pb.js";
import { SystemService } from "../../gen/parapet/v1/system_pb.js";
import { registerReflection } from "./reflection.js";

export interface ServiceImpls {
  policies?: Partial<ServiceImpl<typeof PolicyService>>;
  projects?: Partial<ServiceImpl<typeof ProjectService>>;
  customGuardrails?: Partial<ServiceImpl<typeof CustomGuardrailService>>;
  guard?: Partial<ServiceImpl<typeof GuardService>>;
  logs?: Partial<ServiceImpl<typeof LogService>>;
  analytics?: Partial<ServiceImpl<typeof AnalyticsService>>;
  retiredPolicies?: Partial<ServiceImpl<typeof RetiredPolicyService>>;
  apiKeys?: Partial<ServiceImpl<typeof ApiKeyService>>;
  policyDrafts?: Partial<ServiceImpl<typeof PolicyDraftService>>;
}

/** Every API service, in the order reflection lists them. */
export const apiServices: DescService[] = [
  PolicyService,
  ProjectService,
  CustomGuardrailService,
  LogService,
  AnalyticsService,
  GuardService,
  RetiredPolicyService,
  ApiKeyService,
  PolicyDraftService,
  SystemService,
];

export function apiRoutes(impls: ServiceImpls) {
  return (router: ConnectRouter) => {
    // Services not built yet answer "unimplemented" (HTTP 501) rather than 404.
    router.service(PolicyService, impls.policies ?? {});
    router.service(ProjectService, impls.projects ?? {});
    router.service(CustomGuardrailService, impls.customGuardrails ?? {});
    router.service(LogService, impls.logs ?? {});
    router.service(AnalyticsService, impls.analytics ?? {});
    router.service(GuardService, impls.guard ?? {});
    router.service(RetiredPolicyService, impls.retiredPolicies ?? {});
    router.service(ApiKeyService, impls.apiKeys ?? {});
    router.service(PolicyDraftService, impls.policyDrafts ?? {});
    router.service(SystemService, { ping: (req) => ({ messages: req.messages.length }) });
  };
}

/** The gRPC / Connect paths of every API method, e.g. `/parapet.v1.PolicyService/GetPolicy`. */
export function rpcPaths(): Set<string> {
  return new Set(apiServices.flatMap((s) => s.methods.map((m) => `/${s.typeName}/${m.name}`)));
}

/** API routes plus gRPC server reflection (grpcurl / buf curl). */
export function serverRoutes(impls: ServiceImpls) {
  const api = apiRoutes(impls);
  return (router: ConnectRouter) => {
    api(router);
    // errors.proto is imported by no service but RPC clients decode its ErrorDetail.
    registerReflection(router, apiServices, [file_parapet_v1_errors]);
  };
}
