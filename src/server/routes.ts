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

/**
 * The one table of API services: each by the name its implementation has in ServiceImpls, in the
 * order routes are registered and reflection lists them. Every route list below is built from it.
 */
const API_SERVICES = {
  policies: PolicyService,
  projects: ProjectService,
  customGuardrails: CustomGuardrailService,
  logs: LogService,
  analytics: AnalyticsService,
  guard: GuardService,
  retiredPolicies: RetiredPolicyService,
  apiKeys: ApiKeyService,
  policyDrafts: PolicyDraftService,
  system: SystemService,
} as const;

type ApiServices = typeof API_SERVICES;
type Implementations = { [Name in keyof ApiServices]: ServiceImpl<ApiServices[Name]> };

/** Every method of every API service, but SystemService's, which this module answers: one missing fails to compile. */
export type ServiceImpls = Omit<Implementations, "system">;

/** Ping does nothing with its body: what a call costs without detectors or storage (benchmarks compare it with /v2/guard). */
const systemService: ServiceImpl<typeof SystemService> = { ping: (req) => ({ messages: req.messages.length }) };

export const apiServices: DescService[] = Object.values(API_SERVICES);

export function apiRoutes(impls: ServiceImpls) {
  const all: Implementations = { ...impls, system: systemService };
  const register = <Name extends keyof ApiServices>(router: ConnectRouter, name: Name) => router.service(API_SERVICES[name], all[name]);
  return (router: ConnectRouter) => {
    for (const name of Object.keys(API_SERVICES) as (keyof ApiServices)[]) register(router, name);
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
