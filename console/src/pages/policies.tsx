// Policies: list, the editor (detector catalogue with locations and settings,
// threshold, custom guardrails) with the draft lint shown while typing, delete,
// and the impact preview of a draft over a project's recent requests.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { useEffect, useRef, useState } from "preact/hooks";
import type { CustomGuardrail } from "../../../gen/parapet/v1/custom_guardrails_pb.js";
import type { CustomPolicy, DetectorConfig, PolicyRequestSchema } from "../../../gen/parapet/v1/policies_pb.js";
import type { PreviewPolicyImpactResponse } from "../../../gen/parapet/v1/policy_drafts_pb.js";
import { runAction, useAction } from "../actions.js";
import { announce } from "../announce.js";
import type { Api } from "../api.js";
import { detectorCatalogue, locations, thresholds } from "../catalogue.js";
import { logHref } from "../log-link.js";
import type { PageProps } from "../page-props.js";
import { usePageTitle } from "../page-title.js";
import { ProjectSelect, useProjects } from "../project-select.js";
import { ActionButton, Badge, Empty, ErrorBox, Loading, Table, shortTime, useAsync, useDebounced } from "../ui.js";

interface PolicyDraft {
  name: string;
  defaultThreshold: string;
  detectors: DetectorDraft[];
  customGuardrailIds: string[];
}
type DetectorDraft = Pick<DetectorConfig, "type" | "location" | "allowedDomains" | "overrideList" | "toolAccessList"> & { toolAccessAction?: string };

const emptyDraft = (): PolicyDraft => ({
  name: "",
  defaultThreshold: "l2_very_likely",
  detectors: [
    { type: "prompt_attack", location: "user::content", allowedDomains: [], overrideList: [], toolAccessList: [] },
    { type: "pii/email", location: "user::content", allowedDomains: [], overrideList: [], toolAccessList: [] },
  ],
  customGuardrailIds: [],
});

export function PoliciesPage({ api, readOnly }: PageProps) {
  usePageTitle("Policies");
  const list = useAsync(() => api.policies.listPolicies({ limit: 1000 }), []);
  return (
    <section>
      <h1 tabIndex={-1}>Policies</h1>
      {!readOnly && (
        <p>
          <a class="button" href="#/policies/new">
            New policy
          </a>
        </p>
      )}
      {list.loading && <Loading what="policies" />}
      {list.problem && <ErrorBox problem={list.problem} />}
      {list.data && list.data.policies.length === 0 && <Empty>No policies yet: projects use the default policy (every detector, most sensitive threshold).</Empty>}
      {list.data && list.data.policies.length > 0 && (
        <Table columns={["Name", "Version", "Threshold", "Detectors", "Projects", "Updated"]}>
          {list.data.policies.map((p) => (
            <tr key={p.policyId}>
              <td>
                <a href={`#/policies/${encodeURIComponent(p.policyId)}`}>{p.name}</a>
              </td>
              <td>v{p.versionId}</td>
              <td>{p.defaultThreshold}</td>
              <td>{p.detectors.length}</td>
              <td>{p.projects.map((x) => x.name).join(", ") || "—"}</td>
              <td>{p.updatedAt ? shortTime(new Date(Number(p.updatedAt.seconds) * 1000).toISOString()) : "—"}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/** A detector setting that is a list of strings, edited as a textarea of one entry per line. */
/** The policy threshold picker of the editor and the impact preview. */
function ThresholdSelect({ name, value, onChange }: { name?: string; value: string; onChange: (threshold: string) => void }) {
  return (
    <label>
      Threshold
      <select name={name} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {thresholds.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}

function ListSetting({ label, value, onChange }: { label: string; value: string[] | undefined; onChange: (v: string[]) => void }) {
  return (
    <label class="setting">
      {label} (one per line)
      <textarea
        rows={2}
        value={(value ?? []).join("\n")}
        onInput={(e) =>
          onChange(
            e.currentTarget.value
              .split("\n")
              .map((s) => s.trim())
              .filter(Boolean),
          )
        }
      />
    </label>
  );
}

/** The settings of a detector type that takes them (`settings`: its first placement's, which every placement shares). */
function DetectorSettings({ type, settings, onChange }: { type: string; settings: DetectorDraft; onChange: (patch: Partial<DetectorDraft>) => void }) {
  if (type === "unknown_links") return <ListSetting label="Allowed domains" value={settings.allowedDomains} onChange={(v) => onChange({ allowedDomains: v })} />;
  if (type.startsWith("override_")) return <ListSetting label="Phrases" value={settings.overrideList} onChange={(v) => onChange({ overrideList: v })} />;
  if (type !== "tool_access_control") return null;
  return (
    <>
      <label class="setting">
        Action
        <select value={settings.toolAccessAction ?? "deny"} onChange={(e) => onChange({ toolAccessAction: e.currentTarget.value })}>
          <option value="deny">deny the listed tools</option>
          <option value="allow">allow only the listed tools</option>
        </select>
      </label>
      <ListSetting label="Tools" value={settings.toolAccessList} onChange={(v) => onChange({ toolAccessList: v })} />
    </>
  );
}

/** Where an arrow key (or Home, End, Page Up, Page Down) moves in a grid of `rows` by `cols`; null for other keys. */
function gridMove(key: string, ctrl: boolean, at: { row: number; col: number }, rows: number, cols: number): { row: number; col: number } | null {
  const clamp = (n: number, max: number) => Math.max(0, Math.min(max - 1, n));
  switch (key) {
    case "ArrowRight":
      return { row: at.row, col: clamp(at.col + 1, cols) };
    case "ArrowLeft":
      return { row: at.row, col: clamp(at.col - 1, cols) };
    case "ArrowDown":
      return { row: clamp(at.row + 1, rows), col: at.col };
    case "ArrowUp":
      return { row: clamp(at.row - 1, rows), col: at.col };
    case "Home":
      return ctrl ? { row: 0, col: 0 } : { row: at.row, col: 0 };
    case "End":
      return ctrl ? { row: rows - 1, col: cols - 1 } : { row: at.row, col: cols - 1 };
    case "PageDown":
      return { row: clamp(at.row + 5, rows), col: at.col };
    case "PageUp":
      return { row: clamp(at.row - 5, rows), col: at.col };
    default:
      return null;
  }
}

/**
 * The catalogue's checkboxes as one tab stop (a roving tabindex): Tab enters the grid at the
 * checkbox last used and leaves it at the next control, arrows move within it. A grid of every
 * type by every location would otherwise be well over a hundred tab stops with no way past.
 */
function useRovingGrid(rows: number, cols: number) {
  const [active, setActive] = useState({ row: 0, col: 0 });
  const table = useRef<HTMLTableElement>(null);
  const cellProps = (row: number, col: number) => ({
    "data-cell": `${row}:${col}`,
    tabIndex: row === active.row && col === active.col ? 0 : -1,
    onFocus: () => setActive({ row, col }),
    onKeyDown: (e: KeyboardEvent) => {
      const next = gridMove(e.key, e.ctrlKey || e.metaKey, { row, col }, rows, cols);
      if (!next) return;
      e.preventDefault();
      setActive(next);
      table.current?.querySelector<HTMLElement>(`[data-cell="${next.row}:${next.col}"]`)?.focus();
    },
  });
  return { table, cellProps };
}

/** The detector catalogue: one row per type, a checkbox per location, settings for the types that take them. */
function DetectorEditor({ draft, setDraft, disabled }: { draft: PolicyDraft; setDraft: (d: PolicyDraft) => void; disabled: boolean }) {
  const grid = useRovingGrid(detectorCatalogue.length, locations.length);
  const byType = (t: string) => draft.detectors.filter((d) => d.type === t);
  const setType = (type: string, entries: DetectorDraft[]) => setDraft({ ...draft, detectors: [...draft.detectors.filter((d) => d.type !== type), ...entries] });
  const toggle = (type: string, location: string, on: boolean) => {
    const cur = byType(type);
    const settings = cur[0] ?? { type, location, allowedDomains: [], overrideList: [], toolAccessList: [] };
    setType(type, on ? [...cur, { ...settings, location }] : cur.filter((d) => d.location !== location));
  };
  const setting = (type: string, patch: Partial<DetectorDraft>) =>
    setType(
      type,
      byType(type).map((d) => ({ ...d, ...patch })),
    );
  let family = "";
  return (
    <fieldset class="catalogue" disabled={disabled} aria-describedby="catalogue-keys">
      <legend>Detectors and where they screen</legend>
      <p id="catalogue-keys" class="hint">
        The checkboxes are one stop for the Tab key: arrow keys move between them, Space turns one on or off, Home and End go to the ends of a row, Tab leaves the table.
      </p>
      <div class="table-wrap">
        <table ref={grid.table}>
          <thead>
            <tr>
              <th scope="col">Detector</th>
              {locations.map((l) => (
                <th scope="col" key={l}>
                  {/* Narrow columns: the location may wrap after its role. */}
                  {l.split("::")[0]}::
                  <wbr />
                  {l.split("::")[1]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {detectorCatalogue.map((c, row) => {
              const cur = byType(c.type);
              const head = c.family !== family;
              family = c.family;
              return [
                head && (
                  <tr class="family" key={`f-${c.family}`}>
                    <th colSpan={locations.length + 1} scope="rowgroup">
                      {c.family}
                    </th>
                  </tr>
                ),
                <tr key={c.type}>
                  <th scope="row">
                    <Badge type={c.type} />
                    {cur.length > 0 && <DetectorSettings type={c.type} settings={cur[0]} onChange={(patch) => setting(c.type, patch)} />}
                  </th>
                  {locations.map((l, col) => (
                    <td key={l}>
                      <input
                        {...grid.cellProps(row, col)}
                        type="checkbox"
                        aria-label={`${c.type} at ${l}`}
                        checked={cur.some((d) => d.location === l)}
                        onChange={(e) => toggle(c.type, l, e.currentTarget.checked)}
                      />
                    </td>
                  ))}
                </tr>,
              ];
            })}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}

/** The request form of a draft: settings sent only for the detector types that take them. */
function requestOf(d: PolicyDraft): MessageInitShape<typeof PolicyRequestSchema> {
  return {
    name: d.name,
    defaultThreshold: d.defaultThreshold,
    customGuardrailIds: d.customGuardrailIds,
    detectors: d.detectors.map((x) => ({
      type: x.type,
      location: x.location,
      allowedDomains: x.type === "unknown_links" ? x.allowedDomains : [],
      overrideList: x.type.startsWith("override_") ? x.overrideList : [],
      toolAccessAction: x.type === "tool_access_control" ? (x.toolAccessAction ?? "deny") : undefined,
      toolAccessList: x.type === "tool_access_control" ? x.toolAccessList : [],
    })),
  };
}

function LintPanel({ api, draft }: { api: Api; draft: PolicyDraft }) {
  const settled = useDebounced(JSON.stringify(requestOf(draft)), 400);
  const lint = useAsync(() => api.drafts.lintPolicyDraft({ policy: JSON.parse(settled) as MessageInitShape<typeof PolicyRequestSchema> }), [settled]);
  const items = lint.data?.lint?.errors ?? [];
  useChecksAnnouncement(lint.data ? items : undefined);
  return (
    <section class="lint" aria-busy={lint.loading} aria-labelledby="checks-heading">
      <h2 id="checks-heading">Checks</h2>
      {lint.loading && <Loading what="checks" quiet />}
      {lint.problem && <ErrorBox problem={lint.problem} />}
      {lint.data && items.length === 0 && <p class="ok">No warnings: every detector can fire where it is placed.</p>}
      {items.length > 0 && (
        <ul>
          {items.map((i, n) => (
            <li key={n} class={`lint-${i.severity}`}>
              <strong>{i.severity === "error" ? "Error" : "Warning"}:</strong> {i.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Says the checks' outcome when it changes (not on every keystroke that leaves it as it was). */
function useChecksAnnouncement(items: { severity: string; message: string }[] | undefined): void {
  const last = useRef("");
  useEffect(() => {
    if (!items) return;
    const errors = items.filter((i) => i.severity === "error").length;
    const warnings = items.length - errors;
    const summary =
      items.length === 0
        ? "Checks: no warnings."
        : `Checks: ${[errors && `${errors} ${errors === 1 ? "error" : "errors"}`, warnings && `${warnings} ${warnings === 1 ? "warning" : "warnings"}`].filter(Boolean).join(" and ")}. ${items[0].message}`;
    if (summary !== last.current && last.current !== "") announce(summary);
    last.current = summary;
  }, [items && JSON.stringify(items)]);
}

/** What a screen reader hears when a preview arrives. */
function impactSummary(r: PreviewPolicyImpactResponse): string {
  if (r.evaluated === 0) return "Preview done: this project has no logged requests yet.";
  const changes = `${r.changes.length} ${r.changes.length === 1 ? "request changes" : "requests change"}`;
  return `Preview done. Of the last ${r.evaluated} requests, ${r.detectedThen} had a detection then and ${r.detectedNow} would now; ${changes}.`;
}

function ImpactPanel({ api, draft }: { api: Api; draft: PolicyDraft }) {
  const projects = useProjects(api);
  const [projectId, setProjectId] = useState("");
  const [limit, setLimit] = useState(100);
  const [result, setResult] = useState<PreviewPolicyImpactResponse>();
  const { busy, problem, run } = useAction();
  const project = projectId || projects?.[0]?.id || "";
  const preview = (e: Event) => {
    e.preventDefault();
    if (busy || !project) return;
    run(async () => {
      try {
        const r = await api.drafts.previewPolicyImpact({ projectId: project, policy: requestOf(draft), limit });
        setResult(r);
        announce(impactSummary(r));
      } catch (err) {
        // A failed preview takes the previous result away: the error box says why instead.
        setResult(undefined);
        throw err;
      }
    });
  };
  return (
    <section class="impact">
      <h2>Impact preview</h2>
      <p>Screens the project's most recent logged requests again with this draft (nothing is saved) and compares with what was detected then.</p>
      <form class="controls" onSubmit={preview}>
        <ProjectSelect projects={projects} value={project} onChange={setProjectId} />
        <label>
          Last N requests
          <input type="number" min={1} max={500} value={limit} onInput={(e) => setLimit(Math.min(500, Math.max(1, Number(e.currentTarget.value) || 1)))} />
        </label>
        <ActionButton type="submit" inactive={busy || !project}>
          {busy ? "Screening…" : "Preview impact"}
        </ActionButton>
      </form>
      {busy && <Loading what="the preview" quiet />}
      {problem && <ErrorBox problem={problem} />}
      {result && <ImpactResult result={result} />}
    </section>
  );
}

/** Then versus now, overall and per detector, and the requests that change. */
function ImpactResult({ result }: { result: PreviewPolicyImpactResponse }) {
  return (
    <div class="impact-result">
      {result.evaluated === 0 ? (
        <Empty>This project has no logged requests yet.</Empty>
      ) : (
        <>
          <p class="impact-summary">
            Of the last {result.evaluated} requests, <strong>{result.detectedThen}</strong> had a detection then and <strong>{result.detectedNow}</strong> would now.
          </p>
          <Table columns={["Detector", "Then", "Now", "Change"]}>
            <tr>
              <th scope="row">All detectors</th>
              <td>{result.detectedThen}</td>
              <td>{result.detectedNow}</td>
              <td>{fmtDelta(result.detectedNow - result.detectedThen)}</td>
            </tr>
            {result.detectors.map((d) => (
              <tr key={d.detectorType}>
                <th scope="row">
                  <Badge type={d.detectorType} />
                </th>
                <td>{d.countThen}</td>
                <td>{d.countNow}</td>
                <td>{fmtDelta(d.countNow - d.countThen)}</td>
              </tr>
            ))}
          </Table>
          <h3>Requests that change ({result.changes.length})</h3>
          {result.changes.length === 0 ? (
            <Empty>No request would change.</Empty>
          ) : (
            <ul class="changes">
              {result.changes.map((c) => (
                <li key={c.requestUuid}>
                  <a href={logHref(c)}>{shortTime(c.timestamp)}</a>: {c.detectedThen ? "detected" : "passed"} → {c.detectedNow ? "detected" : "passes"}{" "}
                  <span class="muted">
                    ({c.firedThen.join(", ") || "none"} → {c.firedNow.join(", ") || "none"})
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function fmtDelta(n: number): string {
  return n === 0 ? "no change" : n > 0 ? `+${n}` : String(n);
}

function draftOf(p: { name: string; defaultThreshold: string; detectors: DetectorConfig[]; customGuardrails: { id: string }[] }): PolicyDraft {
  return {
    name: p.name,
    defaultThreshold: p.defaultThreshold,
    detectors: p.detectors.map((d) => ({
      type: d.type,
      location: d.location,
      allowedDomains: d.allowedDomains,
      overrideList: d.overrideList,
      toolAccessAction: d.toolAccessAction,
      toolAccessList: d.toolAccessList,
    })),
    customGuardrailIds: p.customGuardrails.map((g) => g.id),
  };
}

/** The policy being edited: loaded (or a new one's empty draft), saved as its next version, deleted. */
function usePolicyEditor(api: Api, id: string) {
  const isNew = id === "new";
  const [draft, setDraft] = useState<PolicyDraft | undefined>(isNew ? emptyDraft() : undefined);
  const loaded = useAsync(async () => (isNew ? undefined : (await api.policies.getPolicy({ policyId: id })).policy), [id]);
  const guardrails = useAsync(() => api.guardrails.listCustomGuardrails({}), []);
  const [saved, setSaved] = useState("");
  const { busy: saving, problem, setProblem, run } = useAction();
  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
  }, [loaded.data]);

  const save = () => {
    if (!draft || saving) return;
    setSaved("");
    run(async () => {
      if (isNew) {
        const r = await api.policies.createPolicy({ policy: requestOf(draft) });
        announce(`Created the policy ${draft.name}.`);
        location.hash = `#/policies/${encodeURIComponent(r.id)}`;
      } else {
        await api.policies.updatePolicy({ policyId: id, policy: requestOf(draft) });
        setSaved("Saved.");
        loaded.reload();
      }
    });
  };
  const remove = () => {
    if (!confirm(`Delete the policy "${draft?.name}"? Projects must not use it any more.`)) return;
    runAction(async () => {
      await api.policies.deletePolicy({ policyId: id });
      location.hash = "#/policies";
    }, setProblem);
  };
  return { isNew, draft, setDraft, loaded, guardrails: guardrails.data?.customGuardrails, saving, saved, problem, save, remove };
}

type PolicyEditor = ReturnType<typeof usePolicyEditor>;

export function PolicyEditorPage({ api, readOnly, params }: PageProps) {
  const id = params[0];
  const editor = usePolicyEditor(api, id);
  const { isNew, draft, loaded } = editor;
  usePageTitle(isNew ? "New policy" : `Policy ${loaded.data?.name ?? id}`);
  return (
    <section>
      <p>
        <a href="#/policies">← All policies</a>
      </p>
      <h1 tabIndex={-1}>{isNew ? "New policy" : (loaded.data?.name ?? "Policy")}</h1>
      {loaded.loading && !isNew && <Loading what="the policy" />}
      {loaded.problem && <ErrorBox problem={loaded.problem} />}
      {loaded.data && <PolicySummary policy={loaded.data} />}
      {draft && (
        <div class="editor">
          <PolicyForm editor={editor} draft={draft} readOnly={readOnly} />
          <aside>
            <LintPanel api={api} draft={draft} />
          </aside>
        </div>
      )}
      {draft && <ImpactPanel api={api} draft={draft} />}
      {!isNew && loaded.data && <VersionHistory api={api} policyId={id} current={loaded.data.versionId} readOnly={readOnly} onLoad={editor.setDraft} />}
    </section>
  );
}

/** The saved policy's id, version, last update and the projects that use it. */
function PolicySummary({ policy }: { policy: CustomPolicy }) {
  return (
    <p class="muted">
      {policy.policyId} · version {policy.versionId}
      {policy.updatedAt ? ` · updated ${shortTime(new Date(Number(policy.updatedAt.seconds) * 1000).toISOString())}` : ""} · used by{" "}
      {policy.projects.map((p) => `${p.name} (${p.action})`).join(", ") || "no project"}
    </p>
  );
}

/** The draft's name, threshold, detectors and custom guardrails, and the save and delete buttons. */
function PolicyForm({ editor, draft, readOnly }: { editor: PolicyEditor; draft: PolicyDraft; readOnly: boolean }) {
  const { isNew, setDraft, saving, saved, problem } = editor;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        editor.save();
      }}
      class="policy-form"
    >
      <fieldset disabled={readOnly}>
        <label>
          Policy name
          <input name="name" required maxLength={200} value={draft.name} onInput={(e) => setDraft({ ...draft, name: e.currentTarget.value })} />
        </label>
        <ThresholdSelect name="threshold" value={draft.defaultThreshold} onChange={(t) => setDraft({ ...draft, defaultThreshold: t })} />
      </fieldset>
      <DetectorEditor draft={draft} setDraft={setDraft} disabled={readOnly} />
      <CustomGuardrailPicker guardrails={editor.guardrails} draft={draft} setDraft={setDraft} disabled={readOnly} />
      {!readOnly && (
        <div class="actions">
          <ActionButton type="submit" inactive={saving}>
            {saving ? "Saving…" : isNew ? "Create policy" : "Save changes"}
          </ActionButton>
          {!isNew && (
            <button type="button" class="danger" onClick={editor.remove}>
              Delete
            </button>
          )}
          <span role="status">{saved}</span>
        </div>
      )}
      {problem && <ErrorBox problem={problem} />}
    </form>
  );
}

function CustomGuardrailPicker({
  guardrails,
  draft,
  setDraft,
  disabled,
}: {
  guardrails: CustomGuardrail[] | undefined;
  draft: PolicyDraft;
  setDraft: (d: PolicyDraft) => void;
  disabled: boolean;
}) {
  return (
    <fieldset disabled={disabled}>
      <legend>Custom guardrails</legend>
      {guardrails?.length === 0 && <Empty>No custom guardrails in this organization.</Empty>}
      {guardrails?.map((g) => (
        <label class="check" key={g.id}>
          <input
            type="checkbox"
            checked={draft.customGuardrailIds.includes(g.id)}
            onChange={(e) =>
              setDraft({
                ...draft,
                customGuardrailIds: e.currentTarget.checked ? [...draft.customGuardrailIds, g.id] : draft.customGuardrailIds.filter((x) => x !== g.id),
              })
            }
          />{" "}
          {g.name} <span class="muted">({g.locations.join(", ")})</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Every saved version, newest first; an older one can be loaded into the editor and saved as the next version. */
function VersionHistory({
  api,
  policyId,
  current,
  readOnly,
  onLoad,
}: {
  api: Api;
  policyId: string;
  current: number;
  readOnly: boolean;
  onLoad: (d: PolicyDraft) => void;
}) {
  const versions = useAsync(() => api.policies.listPolicyVersions({ policyId, limit: 100 }), [policyId, current]);
  return (
    <section class="history">
      <h2>Version history</h2>
      {versions.loading && <Loading what="versions" />}
      {versions.problem && <ErrorBox problem={versions.problem} />}
      {versions.data && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Saved</th>
                <th scope="col">Name</th>
                <th scope="col">Threshold</th>
                <th scope="col">Detectors</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {versions.data.versions.map((v) => (
                <tr key={v.versionId}>
                  <th scope="row">
                    v{v.versionId}
                    {v.versionId === current ? " (current)" : ""}
                  </th>
                  <td>{v.createdAt ? shortTime(new Date(Number(v.createdAt.seconds) * 1000).toISOString()) : "—"}</td>
                  <td>{v.name}</td>
                  <td>{v.defaultThreshold}</td>
                  <td>{v.detectors.map((d) => `${d.type}@${d.location}`).join(", ")}</td>
                  <td>
                    {!readOnly && v.versionId !== current && (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => {
                          onLoad(
                            draftOf({
                              name: v.name,
                              defaultThreshold: v.defaultThreshold,
                              detectors: v.detectors,
                              customGuardrails: v.customGuardrailIds.map((id) => ({ id })),
                            }),
                          );
                          announce(`Loaded version ${v.versionId} into the editor; save it to make it the next version.`);
                        }}
                      >
                        Load v{v.versionId} into the editor
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The impact preview on its own: start from a saved policy (or the empty draft) and change the threshold. */
export function ImpactPage({ api }: PageProps) {
  usePageTitle("Policy impact preview");
  const list = useAsync(() => api.policies.listPolicies({ limit: 1000 }), []);
  const [policyId, setPolicyId] = useState("");
  const [threshold, setThreshold] = useState("");
  const base = list.data?.policies.find((p) => p.policyId === policyId);
  const draft = base ? draftOf(base) : emptyDraft();
  if (!draft.name) draft.name = "draft";
  if (threshold) draft.defaultThreshold = threshold;
  return (
    <section>
      <h1 tabIndex={-1}>Policy impact preview</h1>
      <p>What would change if a policy were different? Pick a policy to start from and a threshold, or open a policy in the editor to change its detectors.</p>
      {list.problem && <ErrorBox problem={list.problem} />}
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Start from
          <select value={policyId} onChange={(e) => setPolicyId(e.currentTarget.value)}>
            <option value="">A new policy (prompt attacks and e-mail addresses)</option>
            {list.data?.policies.map((p) => (
              <option key={p.policyId} value={p.policyId}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <ThresholdSelect value={threshold || draft.defaultThreshold} onChange={setThreshold} />
      </form>
      <ImpactPanel api={api} draft={draft} />
    </section>
  );
}
