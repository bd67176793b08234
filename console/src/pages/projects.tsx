// Projects: list, create, assign a policy, switch detect / enforce.
import { useState } from "preact/hooks";
import type { CustomPolicy } from "../../../gen/parapet/v1/policies_pb.js";
import type { Project } from "../../../gen/parapet/v1/projects_pb.js";
import { useAction } from "../actions.js";
import type { PageProps } from "../page-props.js";
import { Empty, ErrorBox, Loading, Table, useAsync } from "../ui.js";

type ProjectPatch = { policyId?: string; action?: string };

export function ProjectsPage({ api, readOnly }: PageProps) {
  const projects = useAsync(() => api.projects.listProjects({ limit: 1000 }), []);
  const policies = useAsync(() => api.policies.listPolicies({ limit: 1000 }), []);
  const [name, setName] = useState("");
  const { busy, problem, run } = useAction();

  const act = (fn: () => Promise<unknown>) =>
    run(async () => {
      await fn();
      projects.reload();
    });
  const update = (p: Project, patch: ProjectPatch) =>
    act(() =>
      api.projects.updateProject({
        projectId: p.id,
        project: { name: p.name, policyId: p.policyId, action: p.action, projectMetadata: p.projectMetadata, ...patch },
      }),
    );

  return (
    <section>
      <h1 tabIndex={-1}>Projects</h1>
      {!readOnly && (
        <form
          class="controls"
          onSubmit={(e) => {
            e.preventDefault();
            act(async () => {
              await api.projects.createProject({ project: { name: name.trim(), action: "detect" } });
              setName("");
            });
          }}
        >
          <label>
            New project name
            <input value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy || !name.trim()}>
            Create project
          </button>
        </form>
      )}
      {problem && <ErrorBox problem={problem} />}
      {projects.loading && <Loading what="projects" />}
      {projects.problem && <ErrorBox problem={projects.problem} />}
      {projects.data && projects.data.projects.length === 0 && <Empty>No projects.</Empty>}
      {projects.data && projects.data.projects.length > 0 && (
        <ProjectTable projects={projects.data.projects} policies={policies.data?.policies} disabled={readOnly || busy} onUpdate={update} />
      )}
    </section>
  );
}

/** One row per project, its policy and mode changed in place. */
function ProjectTable({
  projects,
  policies,
  disabled,
  onUpdate,
}: {
  projects: Project[];
  policies: CustomPolicy[] | undefined;
  disabled: boolean;
  onUpdate: (p: Project, patch: ProjectPatch) => void;
}) {
  return (
    <Table columns={["Name", "Id", "Policy", "Mode"]}>
      {projects.map((p) => (
        <tr key={p.id}>
          <th scope="row">{p.name}</th>
          <td>
            <code>{p.id}</code>
          </td>
          <td>
            <select
              aria-label={`Policy of ${p.name}`}
              disabled={disabled}
              value={p.policyId ?? ""}
              onChange={(e) => onUpdate(p, { policyId: e.currentTarget.value || undefined })}
            >
              <option value="">Default policy</option>
              {policies?.map((x) => (
                <option key={x.policyId} value={x.policyId}>
                  {x.name}
                </option>
              ))}
            </select>
          </td>
          <td>
            <select aria-label={`Mode of ${p.name}`} disabled={disabled} value={p.action ?? "detect"} onChange={(e) => onUpdate(p, { action: e.currentTarget.value })}>
              <option value="detect">detect (log only)</option>
              <option value="enforce">enforce (flag)</option>
            </select>
          </td>
        </tr>
      ))}
    </Table>
  );
}
