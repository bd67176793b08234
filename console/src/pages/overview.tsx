// Overview: requests, flagged requests and flags by detector family over time,
// for one project or the whole organization (POST /v1-beta/analytics).
import { useEffect, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import type { GetAnalyticsResponse } from "../../../gen/parapet/v1/analytics_pb.js";
import type { PageProps } from "../page-props.js";
import { ProjectSelect, useProjects } from "../project-select.js";
import { Empty, ErrorBox, Loading, useAsync } from "../ui.js";

/** Ranges and the resolutions that divide them evenly (the analytics endpoint's rule). */
const ranges: { id: string; label: string; minutes: number; resolutions: string[] }[] = [
  { id: "1h", label: "Last hour", minutes: 60, resolutions: ["PT1M", "PT5M", "PT15M"] },
  { id: "24h", label: "Last 24 hours", minutes: 1440, resolutions: ["PT15M", "PT1H", "PT3H"] },
  { id: "7d", label: "Last 7 days", minutes: 10080, resolutions: ["PT1H", "PT6H", "P1D"] },
  { id: "30d", label: "Last 30 days", minutes: 43200, resolutions: ["PT6H", "P1D"] },
];

const series: { key: keyof Counts; label: string; colour: string }[] = [
  { key: "numRequests", label: "Requests", colour: "#6b7280" },
  { key: "totalFlagged", label: "Flagged", colour: "#dc2626" },
  { key: "promptAttackFlagged", label: "Prompt attack", colour: "#7c3aed" },
  { key: "moderationFlagged", label: "Moderation", colour: "#ea580c" },
  { key: "piiFlagged", label: "Personal data", colour: "#0284c7" },
  { key: "unknownLinksFlagged", label: "Unknown links", colour: "#16a34a" },
  { key: "overrideDenyFlagged", label: "Deny list", colour: "#a16207" },
];

type Counts = {
  numRequests: number;
  totalFlagged: number;
  promptAttackFlagged: number;
  moderationFlagged: number;
  piiFlagged: number;
  unknownLinksFlagged: number;
  overrideDenyFlagged: number;
};

function stepMs(resolution: string): number {
  const m = /^P(?:T(\d+)([MH])|(\d+)D)$/.exec(resolution);
  if (!m) return 0;
  return m[3] ? Number(m[3]) * 86_400_000 : Number(m[1]) * (m[2] === "H" ? 3_600_000 : 60_000);
}

function emptyBuckets(res: GetAnalyticsResponse): { timestamp: string }[] {
  const step = stepMs(res.resolution);
  const start = Date.parse(res.effectiveStartTime);
  const end = Date.parse(res.effectiveEndTime);
  const out: { timestamp: string }[] = [];
  for (let t = start; step > 0 && t < end && out.length < 10_000; t += step) out.push({ timestamp: new Date(t).toISOString() });
  return out;
}

/** One series per counter, summed over the answer's projects (the organization view). */
function columns(res: GetAnalyticsResponse): { times: number[]; values: number[][] } {
  const times: number[] = [];
  const values = series.map(() => [] as number[]);
  // No project had traffic: the organization view is still a zero-filled range.
  const first = res.projects[0]?.timeSeries ?? emptyBuckets(res);
  first.forEach((b, i) => {
    times.push(Date.parse(b.timestamp) / 1000);
    series.forEach((s, j) => values[j].push(res.projects.reduce((n, p) => n + ((p.timeSeries[i]?.[s.key] as number | undefined) ?? 0), 0)));
  });
  return { times, values };
}

function Chart({ data }: { data: { times: number[]; values: number[][] } }) {
  const box = useRef<HTMLDivElement>(null);
  // The axes take the theme's text colour when drawn: draw again when the system theme changes.
  const [scheme, setScheme] = useState(0);
  useEffect(() => {
    const media = matchMedia("(prefers-color-scheme: dark)");
    const on = () => setScheme((n) => n + 1);
    media.addEventListener("change", on);
    return () => media.removeEventListener("change", on);
  }, []);
  useEffect(() => {
    const el = box.current!;
    const fg = getComputedStyle(el).color;
    const grid = "rgba(128,128,128,0.25)";
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 280),
        height: 320,
        series: [{ label: "Time" }, ...series.map((s) => ({ label: s.label, stroke: s.colour, width: 2, points: { show: false } }))],
        axes: [
          { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid } },
          { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid }, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : "")) },
        ],
        scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        legend: { live: true },
        cursor: { focus: { prox: 16 } },
      },
      [data.times, ...data.values],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height: 320 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, scheme]);
  return <div class="chart" ref={box} role="img" aria-label="Requests and flags over time; the legend below shows the values under the pointer" />;
}

export function OverviewPage({ api }: PageProps) {
  const [projectId, setProjectId] = useState("");
  const [rangeId, setRangeId] = useState("24h");
  const range = ranges.find((r) => r.id === rangeId)!;
  const [resolution, setResolution] = useState("PT1H");
  const res = range.resolutions.includes(resolution) ? resolution : (range.resolutions[1] ?? range.resolutions[0]);
  const projects = useProjects(api);
  const analytics = useAsync(() => {
    // The end is the next whole minute, so the current minute's requests are in the last bucket.
    const end = Math.floor(Date.now() / 60_000) * 60_000 + 60_000;
    const start = end - range.minutes * 60_000;
    return api.analytics.getAnalytics({
      startTime: new Date(start).toISOString(),
      endTime: new Date(end).toISOString(),
      projectIds: projectId ? [projectId] : [],
      resolution: res,
    });
  }, [projectId, rangeId, res]);
  const data = analytics.data ? columns(analytics.data) : undefined;
  const totals = data ? series.map((s, j) => ({ ...s, total: data.values[j].reduce((a, b) => a + b, 0) })) : [];
  return (
    <section>
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
        <button type="button" class="secondary" onClick={analytics.reload}>
          Refresh
        </button>
      </form>
      {analytics.loading && <Loading what="analytics" />}
      {analytics.problem && <ErrorBox problem={analytics.problem} />}
      {data && (
        <>
          <dl class="totals">
            {totals.map((t) => (
              <div key={t.key}>
                <dt>{t.label}</dt>
                <dd>{t.total}</dd>
              </div>
            ))}
          </dl>
          {data.times.length === 0 || totals[0].total === 0 ? (
            <Empty>No screened requests in this range{projectId ? " for this project" : ""}. Send a request to /v2/guard or try the playground.</Empty>
          ) : null}
          {data.times.length > 0 && <Chart data={data} />}
        </>
      )}
    </section>
  );
}
