// Every generated module of the parapet.v1 API, re-exported: the services, messages and
// their schemas as protoc-gen-es wrote them into the repository's gen/ directory. The build
// compiles these files into the package (scripts/build.mjs), so the published package carries
// its own copy. test/clients/typescript-client.test.ts fails when a generated module is missing here.
export * from "../../../gen/parapet/v1/analytics_pb.js";
export * from "../../../gen/parapet/v1/api_keys_pb.js";
export * from "../../../gen/parapet/v1/custom_guardrails_pb.js";
export * from "../../../gen/parapet/v1/errors_pb.js";
export * from "../../../gen/parapet/v1/guard_pb.js";
export * from "../../../gen/parapet/v1/logs_pb.js";
export * from "../../../gen/parapet/v1/options_pb.js";
export * from "../../../gen/parapet/v1/policies_pb.js";
export * from "../../../gen/parapet/v1/policy_drafts_pb.js";
export * from "../../../gen/parapet/v1/projects_pb.js";
export * from "../../../gen/parapet/v1/retired_policies_pb.js";
export * from "../../../gen/parapet/v1/system_pb.js";
