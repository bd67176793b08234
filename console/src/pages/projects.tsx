// Projects: list, create, assign a policy, switch detect / enforce. A row's policy and mode
// are saved with its Save button only: choosing in a dropdown (one arrow key does) changes
// nothing live, and focus stays on the control the keyboard user is on.
import { useEffect, useState } from "preact/hooks";
import type { CustomPolicy } from "../../../gen/parapet/v1/policies_pb.js";
import type { Project } from "../../../gen/parapet/v1/projects_pb.js";
import { runAction, useAction } from "../actions.js";
import { announce } from "../announce.js";
import type { Api, Problem } from "../api.js";
import type { PageProps } from "../page-props.js";
import { usePageTitle } from "../page-title.js";
import { ActionButton, Empty, ErrorBox, Loading, Table, useAsync } from "../ui.js";

export function ProjectsPage({ api, readOnly }: PageProps) {
  usePageTitle("Projects");
  const projects = useAsync(() => api.projects.listProjects({ limit: 1000 }), []);
  const policies = useAsync(() => api.policies.listPolicies({ limit: 1000 }), []);
  const [name, setName] = useState("");
  const { busy, problem, setProblem, run } = useAction();

  const createProject = (e: Event) => {
    e.preventDefault();
    const wanted = name.trim();
    if (busy || !wanted) return;
    run(async () => {
      await api.projects.createProject({ project: { name: wanted, action: "detect" } });
      setName("");
      announce(`Created the project ${wanted}, in detect mode with the default policy.`);
      projects.reload();
    });
  };

  return (
    <section>
      <h1 tabIndex={-1}>Projects</h1>
      {!readOnly && (
        <form class="controls" onSubmit={createProject}>
          <label>
            New project name
            <input value={name} required maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <ActionButton type="submit" inactive={busy || !name.trim()}>
            {busy ? "Creating…" : "Create project"}
          </ActionButton>
        </form>
      )}
      {problem && <ErrorBox problem={problem} />}
      {projects.loading && <Loading what="projects" />}
      {projects.problem && <ErrorBox problem={projects.problem} />}
      {projects.data && projects.data.projects.length === 0 && <Empty>No projects.</Empty>}
      {projects.data && projects.data.projects.length > 0 && (
        <ProjectTable
          api={api}
          projects={projects.data.projects}
          policies={policies.data?.policies}
          readOnly={readOnly}
          onSaved={projects.reload}
          onProblem={setProblem}
        />
      )}
    </section>
  );
}

/** One row per project, its policy and mode chosen in place and saved per row. */
function ProjectTable(props: {
  api: Api;
  projects: Project[];
  policies: CustomPolicy[] | undefined;
  readOnly: boolean;
  onSaved: () => void;
  onProblem: (p: Problem) => void;
}) {
  return (
    <Table columns={["Name", "Id", "Policy", "Mode", "Changes"]}>
      {props.projects.map((p) => (
        <ProjectRow key={p.id} {...props} project={p} />
      ))}
    </Table>
  );
}

const modeWords: Record<string, string> = { detect: "detect (log only)", enforce: "enforce (flag)" };

function ProjectRow({
  api,
  project: p,
  policies,
  readOnly,
  onSaved,
  onProblem,
}: {
  api: Api;
  project: Project;
  policies: CustomPolicy[] | undefined;
  readOnly: boolean;
  onSaved: () => void;
  onProblem: (p: Problem) => void;
}) {
  const saved = { policyId: p.policyId ?? "", action: p.action ?? "detect" };
  const [draft, setDraft] = useState(saved);
  const [busy, setBusy] = useState(false);
  // A reload after a save (or another tab's change) brings the stored values.
  useEffect(() => setDraft(saved), [saved.policyId, saved.action]);
  const changed = draft.policyId !== saved.policyId || draft.action !== saved.action;
  const policyName = (id: string) => (id ? (policies?.find((x) => x.policyId === id)?.name ?? id) : "the default policy");

  const save = () => {
    if (busy || !changed) return;
    setBusy(true);
    runAction(async () => {
      try {
        await api.projects.updateProject({
          projectId: p.id,
          project: { name: p.name, policyId: draft.policyId || undefined, action: draft.action, projectMetadata: p.projectMetadata },
        });
        announce(`Saved ${p.name}: ${policyName(draft.policyId)}, ${modeWords[draft.action] ?? draft.action}.`);
        onSaved();
      } finally {
        setBusy(false);
      }
    }, onProblem);
  };

  return (
    <tr>
      <th scope="row">{p.name}</th>
      <td>
        <code>{p.id}</code>
      </td>
      <td>
        <select aria-label={`Policy of ${p.name}`} disabled={readOnly} value={draft.policyId} onChange={(e) => setDraft({ ...draft, policyId: e.currentTarget.value })}>
          <option value="">Default policy</option>
          {policies?.map((x) => (
            <option key={x.policyId} value={x.policyId}>
              {x.name}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select aria-label={`Mode of ${p.name}`} disabled={readOnly} value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.currentTarget.value })}>
          <option value="detect">{modeWords.detect}</option>
          <option value="enforce">{modeWords.enforce}</option>
        </select>
      </td>
      <td class="row-actions">
        {!readOnly && (
          <>
            <ActionButton inactive={busy || !changed} aria-label={`Save ${p.name}`} onClick={save}>
              {busy ? "Saving…" : "Save"}
            </ActionButton>{" "}
            {/* Always there, so focus stays on it after an undo. */}
            <ActionButton inactive={!changed} class="secondary" aria-label={`Undo the changes to ${p.name}`} onClick={() => setDraft(saved)}>
              Undo
            </ActionButton>
            {changed && <span class="unsaved"> Not saved</span>}
          </>
        )}
      </td>
    </tr>
  );
}
