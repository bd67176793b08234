// The project picker of the logs, overview and impact preview pages, and the
// project options of the playground's picker: one list request and one option
// markup for all of them.
import type { Project } from "../../gen/parapet/v1/projects_pb.js";
import type { Api } from "./api.js";
import { useAsync } from "./ui.js";

/** The organization's projects (the list endpoint's largest page); undefined while loading or after an error, which leaves the picker with its fixed options. */
export function useProjects(api: Api): Project[] | undefined {
  return useAsync(() => api.projects.listProjects({ limit: 1000 }), []).data?.projects;
}

/** One option per project; `valuePrefix` lets a picker that mixes projects with other targets tell them apart. */
export function ProjectOptions({ projects, valuePrefix = "", withId = false }: { projects: Project[] | undefined; valuePrefix?: string; withId?: boolean }) {
  return (
    <>
      {projects?.map((p) => (
        <option key={p.id} value={valuePrefix + p.id}>
          {withId ? `${p.name} (${p.id})` : p.name}
        </option>
      ))}
    </>
  );
}

/**
 * A select labelled "Project". `anyLabel` names a first option with the empty value (every
 * project, or the whole organization) on pages that filter by project; `withId` shows each
 * project's id after its name.
 */
export function ProjectSelect({
  projects,
  value,
  onChange,
  anyLabel,
  withId,
}: {
  projects: Project[] | undefined;
  value: string;
  onChange: (projectId: string) => void;
  anyLabel?: string;
  withId?: boolean;
}) {
  return (
    <label>
      Project
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        <ProjectOptions projects={projects} withId={withId} />
      </select>
    </label>
  );
}
