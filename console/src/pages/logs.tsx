// Logs: the log endpoint's filters, newest first by default, and offset paging from either
// end; one request's detail with the spans each detector matched highlighted (POST /v1-beta/logs).
import { useEffect, useState } from "preact/hooks";
import type { Project } from "../../../gen/parapet/v1/projects_pb.js";
import type { GuardLog } from "../../../gen/parapet/v1/logs_pb.js";
import type { Api } from "../api.js";
import { colourOf, familyOf, logFilterOptions } from "../catalogue.js";
import { excerptOf, spansOf } from "../log-excerpt.js";
import { logHref } from "../log-link.js";
import { outcomeOf, outcomeWords } from "../outcomes.js";
import type { PageProps } from "../page-props.js";
import { usePageTitle } from "../page-title.js";
import { openInPlayground } from "../playground-handoff.js";
import { ProjectSelect, useProjects } from "../project-select.js";
import { Badge, Empty, ErrorBox, Highlighted, Loading, Table, shortTime, useAsync, type AsyncState } from "../ui.js";
import "../logs-page.css";

const windows: { id: string; label: string; ms: number }[] = [
  { id: "1h", label: "Last hour", ms: 3_600_000 },
  { id: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { id: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
];
const pageSize = 25;

function milliseconds(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${Math.round(ms)} ms`;
}

type Order = "newest_first" | "oldest_first";

/** The list's filters (the log endpoint's, the time as a window ending now) and its order; kept in the page's address. */
interface LogFilter {
  windowId: string;
  projectId: string;
  flaggedOnly: boolean;
  detectedOnly: boolean;
  families: string[];
  order: Order;
}

const defaults: LogFilter = { windowId: "24h", projectId: "", flaggedOnly: false, detectedOnly: false, families: [], order: "newest_first" };

/** The filter a link gives (`#/logs?window=7d&project=…&family=data_leakage`, as the overview links); the rest are defaults. */
function filterOfQuery(q: URLSearchParams): LogFilter {
  const windowId = q.get("window") ?? "";
  return {
    windowId: windows.some((w) => w.id === windowId) ? windowId : defaults.windowId,
    projectId: q.get("project") ?? "",
    flaggedOnly: q.get("flagged") === "1",
    detectedOnly: q.get("detected") === "1",
    families: q.getAll("family").filter((f) => logFilterOptions.some((o) => o.value === f)),
    order: q.get("order") === "oldest_first" ? "oldest_first" : "newest_first",
  };
}

function queryOf(f: LogFilter): string {
  const q = new URLSearchParams();
  if (f.windowId !== defaults.windowId) q.set("window", f.windowId);
  if (f.projectId) q.set("project", f.projectId);
  if (f.flaggedOnly) q.set("flagged", "1");
  if (f.detectedOnly) q.set("detected", "1");
  for (const family of f.families) q.append("family", family);
  if (f.order !== defaults.order) q.set("order", f.order);
  return q.toString();
}

/**
 * Where the page is: `offset` logs from the top of the list, or (`fromBottom`) from its bottom,
 * read with the other order and shown turned round; so the last page is one call away whatever
 * the window holds.
 */
interface Position {
  fromBottom: boolean;
  offset: number;
}

/** A page of the list as shown: its logs in the list's order, and where it is. */
interface LogPage {
  logs: GuardLog[];
  hasMore: boolean;
  position: Position;
  order: Order;
}

const top: Position = { fromBottom: false, offset: 0 };
const bottom: Position = { fromBottom: true, offset: 0 };

/**
 * The window's end, fixed when the filters change or the newest logs are asked for, so that
 * offsets stay put while traffic continues (newest first, new logs would push every page down).
 * A minute ahead, for a browser clock behind the service's.
 */
const windowEnd = () => Date.now() + 60_000;

/** The filters, the position and the logs they select; a filter change goes back to the top. */
function useLogPage(api: Api, query: URLSearchParams) {
  const [filter, setFilter] = useState(() => filterOfQuery(query));
  const [position, setPosition] = useState(top);
  const [until, setUntil] = useState(windowEnd);
  // A link to other filters while the page is shown (the overview's, the navigation's).
  const linked = query.toString();
  useEffect(() => {
    const next = filterOfQuery(new URLSearchParams(linked));
    if (queryOf(next) !== queryOf(filter)) {
      setFilter(next);
      setPosition(top);
      setUntil(windowEnd());
    }
  }, [linked]);
  const logs = useAsync(async (): Promise<LogPage> => {
    const ms = windows.find((w) => w.id === filter.windowId)!.ms;
    const reversed: Order = filter.order === "newest_first" ? "oldest_first" : "newest_first";
    const page = await api.logs.getLogs({
      startTime: new Date(until - ms).toISOString(),
      endTime: new Date(until).toISOString(),
      projectId: filter.projectId || undefined,
      flaggedOnly: filter.flaggedOnly,
      detectedOnly: filter.detectedOnly,
      detectorTypes: filter.families,
      limit: pageSize,
      offset: position.offset,
      order: position.fromBottom ? reversed : filter.order,
    });
    // The page says where it is: until the next arrives, the one shown keeps its own position.
    return { logs: position.fromBottom ? [...page.logs].reverse() : page.logs, hasMore: page.hasMore, position, order: filter.order };
  }, [queryOf(filter), until, position.fromBottom, position.offset]);
  const changeFilter = (patch: Partial<LogFilter>) => {
    const next = { ...filter, ...patch };
    setFilter(next);
    setPosition(top);
    setUntil(windowEnd());
    // The address keeps the filters (a reload or a shared link shows the same list); replaceState fires no hashchange.
    const q = queryOf(next);
    history.replaceState(history.state, "", `#/logs${q ? `?${q}` : ""}`);
  };
  const go = (p: Position, refresh: boolean) => {
    setPosition(p);
    if (refresh) setUntil(windowEnd());
  };
  return { filter, changeFilter, go, logs };
}

export function LogsPage({ api, query }: PageProps) {
  usePageTitle("Logs");
  const projects = useProjects(api);
  const names = new Map(projects?.map((p) => [p.id, p.name]));
  const { filter, changeFilter, go, logs } = useLogPage(api, query);
  return (
    <section>
      <h1 tabIndex={-1}>Logs</h1>
      <LogFilters filter={filter} projects={projects} onChange={changeFilter} />
      <LogsStatus logs={logs} />
      {logs.loading && (
        // Announced by the status above: one voice per page.
        <div aria-hidden="true">
          <Loading what="logs" />
        </div>
      )}
      {logs.problem && <ErrorBox problem={logs.problem} />}
      {logs.data && logs.data.logs.length === 0 && <Empty>No logged requests match these filters.</Empty>}
      {logs.data && logs.data.logs.length > 0 && <LogTable logs={logs.data.logs} order={logs.data.order} names={names} />}
      {logs.data && <LogPager page={logs.data} onGo={go} />}
    </section>
  );
}

/** "Logs 26–50 from the newest": where the page is, counted from the end it was read from. */
function positionText(position: Position, shown: number, order: Order): string {
  const topEnd = order === "newest_first" ? "newest" : "oldest";
  const bottomEnd = order === "newest_first" ? "oldest" : "newest";
  return `Logs ${position.offset + 1}–${position.offset + shown} from the ${position.fromBottom ? bottomEnd : topEnd}`;
}

/** Says what the filters or a page change gave, for screen readers: a region present from the start, so a change in it is announced. */
function LogsStatus({ logs }: { logs: AsyncState<LogPage> }) {
  const page = logs.data;
  const text = logs.loading
    ? "Loading logs…"
    : !page
      ? ""
      : page.logs.length === 0
        ? "No logged requests match these filters."
        : `${positionText(page.position, page.logs.length, page.order)}.`;
  return (
    <p class="visually-hidden" role="status">
      {text}
    </p>
  );
}

/** A checkbox with the hint that says what it selects, read with its name. */
function HintedCheck({ id, label, hint, checked, onChange }: { id: string; label: string; hint: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div class="hinted">
      <label class="check">
        <input type="checkbox" checked={checked} aria-describedby={`${id}-hint`} onChange={(e) => onChange(e.currentTarget.checked)} /> {label}
      </label>
      <span class="hint" id={`${id}-hint`}>
        {hint}
      </span>
    </div>
  );
}

function LogFilters({ filter, projects, onChange }: { filter: LogFilter; projects: Project[] | undefined; onChange: (patch: Partial<LogFilter>) => void }) {
  const { families } = filter;
  return (
    <form class="controls log-filters" onSubmit={(e) => e.preventDefault()}>
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
      <label>
        Order
        <select value={filter.order} onChange={(e) => onChange({ order: e.currentTarget.value as Order })}>
          <option value="newest_first">Newest first</option>
          <option value="oldest_first">Oldest first</option>
        </select>
      </label>
      <HintedCheck
        id="flagged-only"
        label={`${outcomeWords.flagged.label} only`}
        hint={outcomeWords.flagged.hint}
        checked={filter.flaggedOnly}
        onChange={(flaggedOnly) => onChange({ flaggedOnly })}
      />
      <HintedCheck
        id="detected-only"
        label={`${outcomeWords.detected.label} only`}
        hint={outcomeWords.detected.hint}
        checked={filter.detectedOnly}
        onChange={(detectedOnly) => onChange({ detectedOnly })}
      />
      <fieldset class="families">
        <legend>Detector families (any of)</legend>
        {logFilterOptions.map((f) => (
          <label class="check" key={f.value}>
            <input
              type="checkbox"
              checked={families.includes(f.value)}
              onChange={(e) => onChange({ families: e.currentTarget.checked ? [...families, f.value] : families.filter((x) => x !== f.value) })}
            />{" "}
            {f.label}
          </label>
        ))}
      </fieldset>
    </form>
  );
}

/** One badge per family that fired, named by the family and listing its detector types (with their levels when given). */
function FamilyBadges({ results, levels = false }: { results: { detectorType: string; result: string }[]; levels?: boolean }) {
  const byFamily = new Map<string, string[]>();
  for (const r of results) {
    const family = familyOf(r.detectorType);
    byFamily.set(family, [...(byFamily.get(family) ?? []), levels ? `${r.detectorType} (${r.result})` : r.detectorType]);
  }
  return (
    <>
      {[...byFamily].map(([family, types]) => (
        <Badge key={family} type={results.find((r) => familyOf(r.detectorType) === family)!.detectorType}>
          <strong>{family}</strong>: {types.join(", ")}
        </Badge>
      ))}
    </>
  );
}

function Outcome({ log }: { log: GuardLog }) {
  const outcome = outcomeOf(log);
  if (outcome === "flagged") return <strong class="flagged">{outcomeWords.flagged.label}</strong>;
  return <>{outcome === "detected" ? `${outcomeWords.detected.label}, not flagged` : outcomeWords.passed.label}</>;
}

function LogTable({ logs, order, names }: { logs: GuardLog[]; order: Order; names: Map<string, string> }) {
  return (
    <>
      <p class="hint legend-words">
        {(["flagged", "detected", "passed"] as const).map((o) => (
          <span key={o}>
            <strong>{outcomeWords[o].label}</strong>: {outcomeWords[o].hint}.{" "}
          </span>
        ))}
        The message shown is the one a detector fired on, else the last user message.
      </p>
      <Table columns={["Time", "Project", "Decision", "Detectors", "Message"]} caption={`Logged requests, ${order === "newest_first" ? "newest" : "oldest"} first`}>
        {logs.map((l) => {
          const excerpt = excerptOf(l);
          return (
            <tr key={l.requestUuid}>
              <td>
                <a href={logHref(l)}>{shortTime(l.timestamp)}</a>
              </td>
              <td>{names.get(l.projectId) ?? l.projectId}</td>
              <td>
                <Outcome log={l} />
              </td>
              <td>
                <FamilyBadges results={l.results} />
              </td>
              <td class="snippet">
                {excerpt && (
                  <>
                    <span class="muted">{excerpt.where}: </span>
                    <Highlighted text={excerpt.text} spans={excerpt.spans} />
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </Table>
    </>
  );
}

/**
 * Newest, newer, older, oldest, laid out in the list's order. Buttons that lead nowhere stay
 * focusable (aria-disabled, not disabled), so focus never drops to the top of the page; Newest
 * also takes in the logs that arrived since.
 */
function LogPager({ page, onGo }: { page: LogPage; onGo: (p: Position, refresh: boolean) => void }) {
  const { position, hasMore, order } = page;
  const shown = page.logs.length;
  const { fromBottom, offset } = position;
  const up = { to: { fromBottom, offset: fromBottom ? offset + pageSize : offset - pageSize }, can: fromBottom ? hasMore : offset > 0 };
  const down = { to: { fromBottom, offset: fromBottom ? offset - pageSize : offset + pageSize }, can: fromBottom ? offset > 0 : hasMore };
  const atTop = !fromBottom && offset === 0;
  const atBottom = (fromBottom && offset === 0) || (!fromBottom && !hasMore);
  const newestFirst = order === "newest_first";
  const buttons = [
    { label: newestFirst ? "Newest" : "Oldest", to: top, can: newestFirst || !atTop, refresh: newestFirst },
    { label: newestFirst ? "Newer" : "Older", to: up.to, can: up.can, refresh: false },
    { label: newestFirst ? "Older" : "Newer", to: down.to, can: down.can, refresh: false },
    { label: newestFirst ? "Oldest" : "Newest", to: bottom, can: !newestFirst || !atBottom, refresh: !newestFirst },
  ];
  const button = (b: (typeof buttons)[number]) => (
    <button type="button" class="secondary" key={b.label} aria-disabled={b.can ? undefined : "true"} onClick={() => b.can && onGo(b.to, b.refresh)}>
      {b.label}
    </button>
  );
  return (
    <nav class="pager" aria-label="Pages">
      {buttons.slice(0, 2).map(button)}
      <span>{shown > 0 ? positionText(position, shown, order) : ""}</span>
      {buttons.slice(2).map(button)}
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
  usePageTitle(`Request ${id}`);
  const found = useLoggedRequest(api, id, query.get("at") ?? "");
  const log = found.data;
  const version = usePolicyVersion(api, log);
  const projects = useProjects(api);
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
          <LogFacts log={log} version={version.data} projectName={projects?.find((p) => p.id === log.projectId)?.name} />
          <h2>Conversation</h2>
          <SpanLegend log={log} />
          <ConversationNotes log={log} />
          <LoggedConversation log={log} />
        </>
      )}
    </section>
  );
}

/** The request's `metadata` as sent (a JSON object, logged as a string), laid out to read; null when none was sent. */
function metadataOf(log: GuardLog): string | null {
  try {
    const value: unknown = JSON.parse(log.eventMetadata);
    if (value && typeof value === "object" && Object.keys(value).length === 0) return null;
    return JSON.stringify(value, null, 2);
  } catch {
    return log.eventMetadata || null;
  }
}

/** The screening key that sent the request: its name and id, or why there is none. */
function keyOf(log: GuardLog): string {
  if (!log.apiKeyId) return "not recorded";
  return log.apiKeyName ? `${log.apiKeyName} (${log.apiKeyId})` : log.apiKeyId;
}

function LogFacts({ log, version, projectName }: { log: GuardLog; version: number | null | undefined; projectName: string | undefined }) {
  const metadata = metadataOf(log);
  const outcome = outcomeOf(log);
  return (
    <dl class="facts">
      <dt>Time</dt>
      <dd>{shortTime(log.timestamp)}</dd>
      <dt>Project</dt>
      <dd>{projectName ? `${projectName} (${log.projectId})` : log.projectId}</dd>
      <dt>Policy</dt>
      <dd>
        {log.policyId ? <a href={`#/policies/${encodeURIComponent(log.policyId)}`}>{log.policyId}</a> : "—"}
        {version ? `, version ${version}` : ""}
        {version && log.policyVersion === undefined ? " (the newest saved before the request)" : ""}
      </dd>
      <dt>Decision</dt>
      <dd>
        <Outcome log={log} />
        <span class="muted"> — {outcome === "detected" ? "the project is in detect mode, so the answer was not flagged" : outcomeWords[outcome].hint}</span>
      </dd>
      <dt>Detectors</dt>
      <dd>{log.results.length === 0 ? "none fired" : <FamilyBadges results={log.results} levels />}</dd>
      <ModelFacts log={log} />
      <dt>API key</dt>
      <dd>{keyOf(log)}</dd>
      <dt>Screening time</dt>
      <dd>{log.screeningMs !== undefined ? milliseconds(log.screeningMs) : "not recorded"}</dd>
      <dt>Request metadata</dt>
      <dd>{metadata ? <pre class="metadata">{metadata}</pre> : "none sent"}</dd>
      <dt>Messages</dt>
      <dd>{log.messages.length}</dd>
    </dl>
  );
}

/**
 * Which configured models (a model folder, or an LLM judge) produced detections, and of which
 * detectors; nothing when only the built-in detectors fired.
 */
function ModelFacts({ log }: { log: GuardLog }) {
  const byModel = new Map<string, Set<string>>();
  for (const r of log.msgResults) if (r.model) byModel.set(r.model, (byModel.get(r.model) ?? new Set()).add(r.detectorType));
  if (byModel.size === 0) return null;
  return (
    <>
      <dt>Models</dt>
      <dd>
        <ul class="models" aria-label="Models that produced detections">
          {[...byModel].map(([model, types]) => (
            <li key={model}>
              <code>{model}</code>: {[...types].join(", ")}
            </li>
          ))}
        </ul>
      </dd>
    </>
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
                  {h.model ? ` — model ${h.model}` : ""}
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
