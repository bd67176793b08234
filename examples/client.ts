// Manages policies and projects with the typed client package,
// @parapet/client (clients/typescript), over Connect (HTTP/1.1) and over
// gRPC (HTTP/2). Run against a started service:
//   PARAPET_URL=http://localhost:8080 PARAPET_PLATFORM_KEY=ppk_... npx tsx examples/client.ts
import { createParapetClients } from "@parapet/client";
import { createParapetTransport } from "@parapet/client/node";

const baseUrl = process.env.PARAPET_URL ?? "http://localhost:8080";
const apiKey = process.env.PARAPET_PLATFORM_KEY;
if (!apiKey) {
  console.error("set PARAPET_PLATFORM_KEY to a platform key (see data/bootstrap-keys.json)");
  process.exit(2);
}

for (const protocol of ["connect", "grpc"] as const) {
  // One client per service (policy, project, apiKey, log, analytics, guard, ...) over one transport.
  const { policy: policies, project: projects } = createParapetClients(createParapetTransport({ baseUrl, apiKey, protocol }));

  const created = await policies.createPolicy({
    policy: {
      name: `example over ${protocol} ${Date.now()}`,
      defaultThreshold: "l2_very_likely",
      detectors: [
        { type: "prompt_attack", location: "user::content" },
        { type: "pii/email", location: "assistant::content" },
      ],
    },
  });
  const project = await projects.createProject({ project: { name: `example ${protocol}`, policyId: created.id } });
  const { policy } = await policies.getPolicy({ policyId: created.id });
  console.log(`${protocol}: policy ${policy?.policyId} v${policy?.versionId} used by ${policy?.projects.map((p) => p.id).join(", ")}`);

  await projects.deleteProject({ projectId: project.id });
  await policies.deletePolicy({ policyId: created.id });
}
