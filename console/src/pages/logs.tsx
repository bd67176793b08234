// Logs: the log endpoint's filters and offset paging, and one request's detail
// with the spans each detector matched highlighted (POST /v1-beta/logs).
import { useState } from "preact/hooks";
import type { Project } from "../../../gen/parapet/v1/projects_pb.js";
import type { GuardLog, MsgResult } from "../../../gen/parapet/v1/logs_pb.js";
import type { Api } from "../api.js";
import { colourOf, logFamilies } from "../catalogue.js";
import { logHref } from "../log-link.js";
import type { PageProps } from "../page-props.js";
import { openInPlayground } from "../playground-handoff.js";
import { ProjectSelect, useProjects } from "../project-select.js";
import { Badge, Empty, ErrorBox, Highlighted, Loading, Table, shortTime, type Span, useAsync } from "../ui.js";

const windows: { id: string; label: string; ms: number }[] = [
  { id: "1h", label: "Last hour", ms: 3_600_000 },
  { id: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { id: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
];
const pageSize = 25;

/** The spans of the results on one part: a message's content (no tool id) or one of its tool calls. */
function spansOf(hits: MsgResult[], toolId: number | undefined): Span[] {
  return hits.filter((h) => h.toolId === toolId).flatMap((h) => h.spans.map((s) => ({ start: s.start, end: s.end, detectorType: h.detectorType, labels: s.labels })));
}

function milliseconds(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${Math.round(ms)} ms`;
}

function snippet(log: GuardLog): string {
  const m = log.messages.find((x) => x.role === "user") ?? log.messages[0];
  const text = m?.content ?? "";
  return text.length > 90 ? text.slice(0, 90) + "…" : text;
}

/** The list's filters (the log endpoint's, the time as a window ending now). */
interface LogFilter {
  windowId: string;
  projectId: string;
  flaggedOnly: boolean;
  detectedOnly: boolean;
  families: string[];
}

/** The filters, the page offset and the logs they select; changing a filter goes back to the first page. */
function useLogPage(api: Api) {
  const [filter, setFilter] = useState<LogFilter>({ windowId: "24h", projectId: "", flaggedOnly: false, detectedOnly: false, families: [] });
  const [offset, setOffset] = useState(0);
  const { windowId, projectId, flaggedOnly, detectedOnly, families } = filter;
  const logs = useAsync(() => {
    const end = Date.now() + 60_000;
    const ms = windows.find((w) => w.id === windowId)!.ms;
    return api.logs.getLogs({
      startTime: new Date(end - ms).toISOString(),
      endTime: new Date(end).toISOString(),
      projectId: projectId || undefined,
      flaggedOnly,
      detectedOnly,
      detectorTypes: families,
      limit: pageSize,
      offset,
    });
  }, [windowId, projectId, flaggedOnly, detectedOnly, families.join(","), offset]);
  const changeFilter = (patch: Partial<LogFilter>) => {
    setOffset(0);
    setFilter({ ...filter, ...patch });
  };
  return { filter, changeFilter, offset, setOffset, logs };
}

export function LogsPage({ api }: PageProps) {
  const projects = useProjects(api);
  const { filter, changeFilter, offset, setOffset, logs } = useLogPage(api);
  return (
    <section>
      <h1 tabIndex={-1}>Logs</h1>
      <LogFilters filter={filter} projects={projects} onChange={changeFilter} />
      {logs.loading && <Loading what="logs" />}
      {logs.problem && <ErrorBox problem={logs.problem} />}
      {logs.data && logs.data.logs.length === 0 && <Empty>No logged requests match these filters.</Empty>}
      {logs.data && logs.data.logs.length > 0 && <LogTable logs={logs.data.logs} />}
      {logs.data && <LogPager offset={offset} shown={logs.data.logs.length} hasMore={logs.data.hasMore} onOffset={setOffset} />}
    </section>
  );
}

function LogFilters({ filter, projects, onChange }: { filter: LogFilter; projects: Project[] | undefined; onChange: (patch: Partial<LogFilter>) => void }) {
  const { families } = filter;
  return (
    <form class="controls" onSubmit={(e) => e.preventDefault()}>
      <label>
        Time
        <select value={filter.windowId} onChange={(e) => onChange({ windowId: e.currentTarget.value })}>
          {windows.map((w) => (
            <option key={w.id} value={w.id}>
              {w.label}
            </option>
          ))}
        </select>
      </label>
      <ProjectSelect projects={projects} value={filter.projectId} onChange={(projectId) => onChange({ projectId })} anyLabel="All projects" />
      <label class="check">
        <input type="checkbox" checked={filter.flaggedOnly} onChange={(e) => onChange({ flaggedOnly: e.currentTarget.checked })} /> Flagged only
      </label>
      <label class="check">
        <input type="checkbox" checked={filter.detectedOnly} onChange={(e) => onChange({ detectedOnly: e.currentTarget.checked })} /> Detected only
      </label>
      <fieldset class="families">
        <legend>Detector families</legend>
        {logFamilies.map((f) => (
          <label class="check" key={f}>
            <input
              type="checkbox"
              checked={families.includes(f)}
              onChange={(e) => onChange({ families: e.currentTarget.checked ? [...families, f] : families.filter((x) => x !== f) })}
            />{" "}
            {f}
          </label>
        ))}
      </fieldset>
    </form>
  );
}

function LogTable({ logs }: { logs: GuardLog[] }) {
  return (
    <Table columns={["Time", "Project", "Decision", "Detectors", "Conversation"]} caption="Logged requests, oldest first">
      {logs.map((l) => (
        <tr key={l.requestUuid}>
          <td>
            <a href={logHref(l)}>{shortTime(l.timestamp)}</a>
          </td>
          <td>{l.projectId}</td>
          <td>{l.flagged ? <strong class="flagged">Flagged</strong> : l.results.length > 0 ? "Detected" : "Passed"}</td>
          <td>
            {l.results.map((r) => (
              <Badge key={r.detectorType} type={r.detectorType} />
            ))}
          </td>
          <td class="snippet">{snippet(l)}</td>
        </tr>
      ))}
    </Table>
  );
}

/** Previous and next by the page size; `shown` is how many logs this page holds. */
function LogPager({ offset, shown, hasMore, onOffset }: { offset: number; shown: number; hasMore: boolean; onOffset: (offset: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
        Previous
      </button>
      <span>{shown > 0 ? `${offset + 1}–${offset + shown}` : ""}</span>
      <button type="button" class="secondary" disabled={!hasMore} onClick={() => onOffset(offset + pageSize)}>
        Next
      </button>
    </nav>
  );
}

/** One log, found by id within the second of its timestamp (the logs endpoint filters by time). */
function useLoggedRequest(api: Api, id: string, at: string) {
  return useAsync(async () => {
    const t = Date.parse(at);
    if (Number.isNaN(t)) throw new Error("this link has no valid time (at=)");
    let offset = 0;
    for (;;) {
      const page = await api.logs.getLogs({ startTime: new Date(t - 1000).toISOString(), endTime: new Date(t + 1000).toISOString(), limit: 1000, offset });
      const hit = page.logs.find((l) => l.requestUuid === id);
      if (hit || !page.hasMore) return hit ?? null;
      offset += page.logs.length;
    }
  }, [id, at]);
}

/** The version of the log's policy: stored with the log, or for a log written before versions were recorded the newest saved before the request. */
function usePolicyVersion(api: Api, log: GuardLog | null | undefined) {
  return useAsync(async () => {
    if (!log?.policyId) return null;
    if (log.policyVersion !== undefined) return log.policyVersion;
    const { versions } = await api.policies.listPolicyVersions({ policyId: log.policyId, limit: 1000 });
    const at = Date.parse(log.timestamp);
    return versions.find((v) => v.createdAt && Number(v.createdAt.seconds) * 1000 + Math.floor(v.createdAt.nanos / 1e6) <= at)?.versionId ?? null;
  }, [log?.requestUuid]);
}

export function LogDetailPage({ api, params, query }: PageProps) {
  const id = params[0];
  const found = useLoggedRequest(api, id, query.get("at") ?? "");
  const log = found.data;
  const version = usePolicyVersion(api, log);
  return (
    <section>
      <p>
        <a href="#/logs">← All logs</a>
      </p>
      <h1 tabIndex={-1}>Request {id}</h1>
      {found.loading && <Loading what="the request" />}
      {found.problem && <ErrorBox problem={found.problem} />}
      {found.data === null && <Empty>No logged request {id} at this time: it may have passed the retention period.</Empty>}
      {log && (
        <>
          <LogFacts log={log} version={version.data} />
          <h2>Conversation</h2>
          <SpanLegend log={log} />
          <ConversationNotes log={log} />
          <LoggedConversation log={log} />
        </>
      )}
    </section>
  );
}

function LogFacts({ log, version }: { log: GuardLog; version: number | null | undefined }) {
  return (
    <dl class="facts">
      <dt>Time</dt>
      <dd>{shortTime(log.timestamp)}</dd>
      <dt>Project</dt>
      <dd>{log.projectId}</dd>
      <dt>Policy</dt>
      <dd>
        {log.policyId ? <a href={`#/policies/${encodeURIComponent(log.policyId)}`}>{log.policyId}</a> : "—"}
        {version ? `, version ${version}` : ""}
        {version && log.policyVersion === undefined ? " (the newest saved before the request)" : ""}
      </dd>
      <dt>Decision</dt>
      <dd>{log.flagged ? <strong class="flagged">Flagged</strong> : log.results.length > 0 ? "Detected, not flagged (detect mode)" : "Passed"}</dd>
      <dt>Detectors</dt>
      <dd>
        {log.results.length === 0
          ? "none fired"
          : log.results.map((r) => (
              <Badge key={r.detectorType} type={r.detectorType}>
                {r.detectorType}: {r.result}
              </Badge>
            ))}
      </dd>
      <dt>Screening time</dt>
      <dd>{log.screeningMs !== undefined ? milliseconds(log.screeningMs) : "not recorded"}</dd>
    </dl>
  );
}

/** The detectors whose spans are highlighted, each in its colour. */
function SpanLegend({ log }: { log: GuardLog }) {
  const legend = [...new Set(log.msgResults.filter((r) => r.spans.length > 0).map((r) => r.detectorType))];
  if (legend.length === 0) return null;
  return (
    <div class="legend">
      <span class="muted" aria-hidden="true">
        Highlighted:
      </span>
      <ul aria-label="Highlighted detectors">
        {legend.map((t) => (
          <li key={t}>
            <mark class={`span c${colourOf(t)}`}>{t}</mark>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Why some text is not highlighted, and the way to screen the conversation again. */
function ConversationNotes({ log }: { log: GuardLog }) {
  return (
    <p class="muted">
      {log.msgResults.some((r) => r.spansTruncated) ? "Only the first 50 spans of a detector on one message are kept. " : ""}
      {log.msgResults.some((r) => r.messageId !== undefined && r.spans.length === 0)
        ? "Detectors that judge a message as a whole mark the message only; sanitized requests, and requests logged before spans were recorded, have no highlighted text. "
        : ""}
      <button
        type="button"
        class="secondary"
        onClick={() =>
          openInPlayground(
            log.messages.map((m) => ({
              role: m.role,
              content: m.content,
              toolName: m.toolCalls[0]?.function?.name,
              toolArgs: m.toolCalls[0]?.function?.arguments,
              toolCallId: m.toolCallId || m.toolCalls[0]?.id,
            })),
            log.projectId,
          )
        }
      >
        Open in the playground
      </button>{" "}
      to screen it again.
    </p>
  );
}

/** The logged messages, each with the detectors that fired on it and their spans highlighted. */
function LoggedConversation({ log }: { log: GuardLog }) {
  return (
    <ol class="conversation">
      {log.messages.map((m, i) => {
        const hits = log.msgResults.filter((r) => r.messageId === i);
        return (
          <li key={i} class={hits.length ? `msg hit` : "msg"} data-flagged={hits.length > 0 ? "true" : undefined}>
            <div class="role">
              {m.role}
              {m.name ? ` (${m.name})` : ""}
              {hits.map((h, j) => (
                <Badge key={j} type={h.detectorType}>
                  {h.detectorType}
                  {h.toolId !== undefined ? ` (tool call ${h.toolId})` : ""}: {h.result}
                </Badge>
              ))}
            </div>
            {m.content && (
              <pre class="content">
                <Highlighted text={m.content} spans={spansOf(hits, undefined)} />
              </pre>
            )}
            {m.toolCalls.map((c, j) => (
              <pre class="content tool" key={j}>
                {c.function?.name}(<Highlighted text={c.function?.arguments ?? ""} spans={spansOf(hits, j)} />)
              </pre>
            ))}
          </li>
        );
      })}
    </ol>
  );
}
