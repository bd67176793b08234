// Calls Parapet with the generated TypeScript client, over Connect (HTTP/1.1)
// and over gRPC (HTTP/2). Run against a started service:
//   PARAPET_URL=http://localhost:8080 PARAPET_PLATFORM_KEY=ppk_... npx tsx examples/client.ts
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { PolicyService } from "../gen/parapet/v1/policies_pb.js";
import { ProjectService } from "../gen/parapet/v1/projects_pb.js";

const baseUrl = process.env.PARAPET_URL ?? "http://localhost:8080";
const key = process.env.PARAPET_PLATFORM_KEY;
if (!key) {
  console.error("set PARAPET_PLATFORM_KEY to a platform key (see data/bootstrap-keys.json)");
  process.exit(2);
}

const bearer: Interceptor = (next) => (req) => {
  req.header.set("authorization", `Bearer ${key}`);
  return next(req);
};

const transports = {
  connect: createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors: [bearer] }),
  grpc: createGrpcTransport({ baseUrl, interceptors: [bearer] }),
};

for (const [name, transport] of Object.entries(transports)) {
  const policies = createClient(PolicyService, transport);
  const projects = createClient(ProjectService, transport);

  const created = await policies.createPolicy({
    policy: {
      name: `example over ${name} ${Date.now()}`,
      defaultThreshold: "l2_very_likely",
      detectors: [
        { type: "prompt_attack", location: "user::content" },
        { type: "pii/email", location: "assistant::content" },
      ],
    },
  });
  const project = await projects.createProject({ project: { name: `example ${name}`, policyId: created.id } });
  const { policy } = await policies.getPolicy({ policyId: created.id });
  console.log(`${name}: policy ${policy?.policyId} v${policy?.versionId} used by ${policy?.projects.map((p) => p.id).join(", ")}`);

  await projects.deleteProject({ projectId: project.id });
  await policies.deletePolicy({ policyId: created.id });
}
