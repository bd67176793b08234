// Overview: what an operator wants at a glance for the organization or one project over a
// range: requests, the detection and flag rates against the previous range, screening time
// p50/p95, counts per bucket as bars, and the top detectors and projects by detections
// (POST /v1-beta/analytics with its details extension, docs/api.md#analytics-details).
import { useMemo, useState } from "preact/hooks";
import type { AnalyticsBucket, GetAnalyticsResponse } from "../../../gen/parapet/v1/analytics_pb.js";
import type { Project } from "../../../gen/parapet/v1/projects_pb.js";
import type { Api } from "../api.js";
import { BarChart, type BarSeries } from "../bar-chart.js";
import { familyOf, logFilterOf } from "../catalogue.js";
import { outcomeWords } from "../outcomes.js";
import type { PageProps } from "../page-props.js";
import { usePageTitle } from "../page-title.js";
import { ProjectSelect, useProjects } from "../project-select.js";
import { Badge, Empty, ErrorBox, Loading, Table, useAsync, type AsyncState } from "../ui.js";
import "../overview-page.css";

/** Ranges and the resolutions that divide them evenly (the analytics endpoint's rule); ids are the logs page's windows. */
const ranges: { id: string; label: string; previous: string; minutes: number; resolutions: string[] }[] = [
  { id: "1h", label: "Last hour", previous: "in the hour before", minutes: 60, resolutions: ["PT1M", "PT5M", "PT15M"] },
  { id: "24h", label: "Last 24 hours", previous: "in the 24 hours before", minutes: 1440, resolutions: ["PT15M", "PT1H", "PT3H"] },
  { id: "7d", label: "Last 7 days", previous: "in the 7 days before", minutes: 10080, resolutions: ["PT1H", "PT6H", "P1D"] },
  { id: "30d", label: "Last 30 days", previous: "in the 30 days before", minutes: 43200, resolutions: ["PT6H", "P1D"] },
];
type Range = (typeof ranges)[number];

/** The bars, totals first: each later series is a part of the one before, drawn in front of it. */
const barSeries: { label: string; colour: string; of: (b: AnalyticsBucket) => number }[] = [
  { label: "Requests", colour: "#6b7280", of: (b) => b.numRequests },
  { label: outcomeWords.detected.label, colour: "#b45309", of: (b) => b.totalFlagged },
  { label: outcomeWords.flagged.label, colour: "#dc2626", of: (b) => b.decisionFlagged ?? 0 },
];

function stepMs(resolution: string): number {
  const m = /^P(?:T(\d+)([MH])|(\d+)D)$/.exec(resolution);
  if (!m) return 0;
  return m[3] ? Number(m[3]) * 86_400_000 : Number(m[1]) * (m[2] === "H" ? 3_600_000 : 60_000);
}

/** The organization's (or the one project's) counts per bucket: the answer's projects summed. */
function chartOf(res: GetAnalyticsResponse): { starts: number[]; step: number; end: number; series: BarSeries[] } {
  const step = stepMs(res.resolution);
  const start = Date.parse(res.effectiveStartTime);
  const end = Date.parse(res.effectiveEndTime);
  const starts: number[] = [];
  for (let t = start; step > 0 && t < end && starts.length < 10_000; t += step) starts.push(t);
  const series = barSeries.map((s) => ({
    label: s.label,
    colour: s.colour,
    values: starts.map((_, i) => res.projects.reduce((n, p) => n + (p.timeSeries[i] ? s.of(p.timeSeries[i]) : 0), 0)),
  }));
  return { starts, step, end, series };
}

/** This range and the one before it, both up to the same end (the next whole minute, so this minute's requests count). */
function useAnalytics(api: Api, projectId: string, range: Range, resolution: string, refreshed: number) {
  const end = useMemo(() => Math.floor(Date.now() / 60_000) * 60_000 + 60_000, [projectId, range.id, resolution, refreshed]);
  const span = range.minutes * 60_000;
  const ask = (startMs: number, res: string) =>
    api.analytics.getAnalytics({
      startTime: new Date(startMs).toISOString(),
      endTime: new Date(startMs + span).toISOString(),
      projectIds: projectId ? [projectId] : [],
      resolution: res,
      includeDetails: true,
    });
  const current = useAsync(() => ask(end - span, resolution), [end]);
  // One bucket over the whole previous range: only its totals are read.
  const previous = useAsync(() => ask(end - 2 * span, `PT${range.minutes}M`), [end]);
  return { current, previous };
}

export function OverviewPage({ api }: PageProps) {
  usePageTitle("Overview");
  const [projectId, setProjectId] = useState("");
  const [rangeId, setRangeId] = useState("24h");
  const range = ranges.find((r) => r.id === rangeId)!;
  const [resolution, setResolution] = useState("PT1H");
  const res = range.resolutions.includes(resolution) ? resolution : (range.resolutions[1] ?? range.resolutions[0]);
  const [refreshed, setRefreshed] = useState(0);
  const projects = useProjects(api);
  const { current, previous } = useAnalytics(api, projectId, range, res, refreshed);
  const chart = useMemo(() => (current.data ? chartOf(current.data) : undefined), [current.data]);
  const totals = current.data?.totals;
  return (
    <section class="overview">
      <h1 tabIndex={-1}>Overview</h1>
      <form class="controls" onSubmit={(e) => e.preventDefault()}>
        <ProjectSelect projects={projects} value={projectId} onChange={setProjectId} anyLabel="Whole organization" withId />
        <label>
          Range
          <select value={rangeId} onChange={(e) => setRangeId(e.currentTarget.value)}>
            {ranges.map((r) => (
              <option value={r.id} key={r.id}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Resolution
          <select value={res} onChange={(e) => setResolution(e.currentTarget.value)}>
            {range.resolutions.map((r) => (
              <option value={r} key={r}>
                {r.replace(/^PT?/, "").toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={() => setRefreshed((n) => n + 1)}>
          Refresh
        </button>
      </form>
      <OverviewStatus current={current} range={range} />
      {current.loading && (
        // Announced by the status above: one voice per page.
        <div aria-hidden="true">
          <Loading what="analytics" />
        </div>
      )}
      {current.problem && <ErrorBox problem={current.problem} />}
      {totals && <Headline totals={totals} previous={previous.data?.totals} range={range} />}
      {totals && totals.numRequests === 0 && (
        <Empty>No screened requests in this range{projectId ? " for this project" : ""}. Send a request to /v2/guard or try the playground.</Empty>
      )}
      {chart && chart.starts.length > 0 && (
        <BarChart
          label={`Requests, detected and flagged per ${res.replace(/^PT?/, "").toLowerCase()}, ${range.label.toLowerCase()}`}
          starts={chart.starts}
          stepMs={chart.step}
          endMs={chart.end}
          series={chart.series}
          note="One bar per bucket, over the time it covers. Flagged requests are among the detected, and detected among all requests: each is drawn in front of the one before."
        />
      )}
      {current.data && totals && (
        <div class="top-lists">
          <TopDetectors totals={totals} rangeId={range.id} />
          <TopProjects res={current.data} projects={projects} rangeId={range.id} />
        </div>
      )}
    </section>
  );
}

/** Says what loaded, for screen readers: a region present from the start, so a change in it is announced. */
function OverviewStatus({ current, range }: { current: AsyncState<GetAnalyticsResponse>; range: Range }) {
  const t = current.data?.totals;
  const text = current.loading
    ? "Loading analytics…"
    : t
      ? `${range.label}: ${t.numRequests} requests, ${t.totalFlagged} detected, ${t.decisionFlagged ?? 0} flagged.`
      : "";
  return (
    <p class="visually-hidden" role="status">
      {text}
    </p>
  );
}

function percent(part: number, whole: number): string {
  if (whole === 0) return "–";
  const p = (100 * part) / whole;
  return `${p < 10 && p > 0 ? p.toFixed(1) : Math.round(p)}%`;
}

/** The rate's change against the previous range, in words; the arrow is decoration. */
function Trend({
  part,
  whole,
  before,
  range,
  of,
}: {
  part: number;
  whole: number;
  before: AnalyticsBucket | undefined;
  range: Range;
  of: (b: AnalyticsBucket) => number;
}) {
  if (!before) return null;
  if (before.numRequests === 0) return <>no requests {range.previous}</>;
  const then = percent(of(before), before.numRequests);
  if (whole === 0) return <>{`${then} ${range.previous}`}</>;
  const points = Math.round(((100 * part) / whole - (100 * of(before)) / before.numRequests) * 10) / 10;
  if (points === 0) return <>{`unchanged from ${then} ${range.previous}`}</>;
  return (
    <>
      <span aria-hidden="true">{points > 0 ? "↑ " : "↓ "}</span>
      {`${points > 0 ? "up" : "down"} ${Math.abs(points)} points from ${then} ${range.previous}`}
    </>
  );
}

function milliseconds(ms: number | undefined): string {
  if (ms === undefined) return "–";
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** The cards: requests, the detected and flagged rates with their trend, screening time. */
function Headline({ totals, previous, range }: { totals: AnalyticsBucket; previous: AnalyticsBucket | undefined; range: Range }) {
  const n = totals.numRequests;
  const rates = [
    { word: outcomeWords.detected, count: totals.totalFlagged, of: (b: AnalyticsBucket) => b.totalFlagged },
    { word: outcomeWords.flagged, count: totals.decisionFlagged ?? 0, of: (b: AnalyticsBucket) => b.decisionFlagged ?? 0 },
  ];
  const time = totals.screeningMs;
  return (
    <dl class="totals headline">
      <div>
        <dt>Requests</dt>
        <dd>
          <span class="figure">{n}</span>
          <span class="sub">screened, {range.label.toLowerCase()}</span>
        </dd>
      </div>
      {rates.map((r) => (
        <div key={r.word.label}>
          <dt>{r.word.label}</dt>
          <dd>
            <span class="figure">
              {percent(r.count, n)} <span class="count">({r.count})</span>
            </span>
            <span class="sub">
              <Trend part={r.count} whole={n} before={previous} range={range} of={r.of} />
            </span>
            <span class="hint">
              {r.word.label}: {r.word.hint}.
            </span>
          </dd>
        </div>
      ))}
      <div>
        <dt>Screening time</dt>
        <dd>
          <span class="figure">
            p50 {milliseconds(time?.p50)} · p95 {milliseconds(time?.p95)}
          </span>
          <span class="sub">{time?.count ? `over ${time.count} timed requests` : "no timed requests"}</span>
          <span class="hint">Time in detectors and guardrails per request; percentiles estimated from a histogram.</span>
        </dd>
      </div>
    </dl>
  );
}

/** The link to the logs this row counts, in the same window. */
function logsHref(rangeId: string, filter: Record<string, string>): string {
  return `#/logs?${new URLSearchParams({ window: rangeId, ...filter }).toString()}`;
}

function TopDetectors({ totals, rangeId }: { totals: AnalyticsBucket; rangeId: string }) {
  const rows = Object.entries(totals.detectorCounts)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, 8);
  return (
    <section aria-labelledby="top-detectors">
      <h2 id="top-detectors">Top detectors</h2>
      {rows.length === 0 ? (
        <Empty>No detector fired in this range.</Empty>
      ) : (
        <Table columns={["Detector", "Family", "Requests", `Share of ${outcomeWords.detected.label.toLowerCase()}`]} caption="Detectors by the requests they fired on">
          {rows.map(([type, count]) => {
            const filter = logFilterOf(type);
            return (
              <tr key={type}>
                <th scope="row">{filter ? <a href={logsHref(rangeId, { family: filter })}>{type}</a> : type}</th>
                <td>
                  <Badge type={type}>{familyOf(type)}</Badge>
                </td>
                <td>{count}</td>
                <td>{percent(count, totals.totalFlagged)}</td>
              </tr>
            );
          })}
        </Table>
      )}
    </section>
  );
}

function TopProjects({ res, projects, rangeId }: { res: GetAnalyticsResponse; projects: Project[] | undefined; rangeId: string }) {
  const names = new Map(projects?.map((p) => [p.id, p.name]));
  const rows = res.projects
    .map((p) => {
      const sum = (of: (b: AnalyticsBucket) => number) => p.timeSeries.reduce((n, b) => n + of(b), 0);
      return { id: p.projectId ?? "", requests: sum((b) => b.numRequests), detected: sum((b) => b.totalFlagged), flagged: sum((b) => b.decisionFlagged ?? 0) };
    })
    .filter((r) => r.requests > 0)
    .sort((a, b) => b.detected - a.detected || b.requests - a.requests)
    .slice(0, 8);
  const { detected, flagged } = outcomeWords;
  return (
    <section aria-labelledby="top-projects">
      <h2 id="top-projects">Top projects</h2>
      {rows.length === 0 ? (
        <Empty>No project had requests in this range.</Empty>
      ) : (
        <Table columns={["Project", "Requests", detected.label, flagged.label, `Share ${detected.label.toLowerCase()}`]} caption="Projects by detected requests">
          {rows.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                <a href={logsHref(rangeId, { project: r.id, detected: "1" })}>{names.get(r.id) ?? r.id}</a>
              </th>
              <td>{r.requests}</td>
              <td>{r.detected}</td>
              <td>{r.flagged}</td>
              <td>{percent(r.detected, r.requests)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
