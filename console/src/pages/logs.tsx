// Logs: the log endpoint's filters and offset paging, and one request's detail
// with the spans each detector matched highlighted (POST /v1-beta/logs).
import { useState } from "preact/hooks";
import type { GuardLog, MsgResult } from "../../../gen/parapet/v1/logs_pb.js";
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

export function LogsPage({ api }: PageProps) {
  const [windowId, setWindowId] = useState("24h");
  const [projectId, setProjectId] = useState("");
  const [flaggedOnly, setFlaggedOnly] = useState(false);
  const [detectedOnly, setDetectedOnly] = useState(false);
  const [families, setFamilies] = useState<string[]>([]);
  const [offset, setOffset] = useState(0);
  const projects = useProjects(api);
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
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setOffset(0);
      set(v);
    };
  return (
    <section>
      <h1 tabIndex={-1}>Logs</h1>
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <label>
          Time
          <select value={windowId} onChange={(e) => reset(setWindowId)(e.currentTarget.value)}>
            {windows.map((w) => (
              <option key={w.id} value={w.id}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        <ProjectSelect projects={projects} value={projectId} onChange={reset(setProjectId)} anyLabel="All projects" />
        <label class="check">
          <input type="checkbox" checked={flaggedOnly} onChange={(e) => reset(setFlaggedOnly)(e.currentTarget.checked)} /> Flagged only
        </label>
        <label class="check">
          <input type="checkbox" checked={detectedOnly} onChange={(e) => reset(setDetectedOnly)(e.currentTarget.checked)} /> Detected only
        </label>
        <fieldset class="families">
          <legend>Detector families</legend>
          {logFamilies.map((f) => (
            <label class="check" key={f}>
              <input
                type="checkbox"
                checked={families.includes(f)}
                onChange={(e) => reset(setFamilies)(e.currentTarget.checked ? [...families, f] : families.filter((x) => x !== f))}
              />{" "}
              {f}
            </label>
          ))}
        </fieldset>
      </form>
      {logs.loading && <Loading what="logs" />}
      {logs.problem && <ErrorBox problem={logs.problem} />}
      {logs.data && logs.data.logs.length === 0 && <Empty>No logged requests match these filters.</Empty>}
      {logs.data && logs.data.logs.length > 0 && (
        <Table columns={["Time", "Project", "Decision", "Detectors", "Conversation"]} caption="Logged requests, oldest first">
          {logs.data.logs.map((l) => (
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
      )}
      {logs.data && (
        <nav class="pager" aria-label="Pages">
          <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
            Previous
          </button>
          <span>{logs.data.logs.length > 0 ? `${offset + 1}–${offset + logs.data.logs.length}` : ""}</span>
          <button type="button" class="secondary" disabled={!logs.data.hasMore} onClick={() => setOffset(offset + pageSize)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}

/** One log: found by id within the second of its timestamp (the logs endpoint filters by time). */
export function LogDetailPage({ api, params, query }: PageProps) {
  const id = params[0];
  const at = query.get("at") ?? "";
  const found = useAsync(async () => {
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
  const log = found.data;
  // Logs written before the version was recorded name the policy only: the version in force then is the newest saved before the request.
  const version = useAsync(async () => {
    if (!log?.policyId) return null;
    if (log.policyVersion !== undefined) return log.policyVersion;
    const { versions } = await api.policies.listPolicyVersions({ policyId: log.policyId, limit: 1000 });
    const at = Date.parse(log.timestamp);
    return versions.find((v) => v.createdAt && Number(v.createdAt.seconds) * 1000 + Math.floor(v.createdAt.nanos / 1e6) <= at)?.versionId ?? null;
  }, [log?.requestUuid]);
  const legend = [...new Set((log?.msgResults ?? []).filter((r) => r.spans.length > 0).map((r) => r.detectorType))];
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
          <dl class="facts">
            <dt>Time</dt>
            <dd>{shortTime(log.timestamp)}</dd>
            <dt>Project</dt>
            <dd>{log.projectId}</dd>
            <dt>Policy</dt>
            <dd>
              {log.policyId ? <a href={`#/policies/${encodeURIComponent(log.policyId)}`}>{log.policyId}</a> : "—"}
              {version.data ? `, version ${version.data}` : ""}
              {version.data && log.policyVersion === undefined ? " (the newest saved before the request)" : ""}
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
          <h2>Conversation</h2>
          {legend.length > 0 && (
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
          )}
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
        </>
      )}
    </section>
  );
}
