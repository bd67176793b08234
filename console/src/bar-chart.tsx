// Counts per time bucket as bars (uPlot), with what a keyboard or screen-reader user needs
// too: series toggles that are buttons, a readout that shows the whole range's totals until
// the pointer picks a bucket (never "--"), and the same numbers as a table.
import { useEffect, useRef, useState } from "preact/hooks";
import uPlot from "uplot";
import "./bar-chart.css";
import { Table } from "./ui.js";

export interface BarSeries {
  label: string;
  /** A CSS colour with at least 3:1 contrast on both themes' backgrounds (WCAG 1.4.11). */
  colour: string;
  /** One count per bucket. */
  values: number[];
}

export interface BarChartProps {
  /** What the chart shows, read out in place of the picture. */
  label: string;
  /** Bucket starts (milliseconds), contiguous, `stepMs` apart; the last bucket ends at `endMs`. */
  starts: number[];
  stepMs: number;
  endMs: number;
  /** Drawn in order over one another: later series are in front, so list totals before their parts. */
  series: BarSeries[];
  /** Says how to read the bars, under the chart. */
  note?: string;
}

/** "10 Jun 2026, 14:00–15:00", or the day alone for day buckets. */
function bucketLabel(start: number, stepMs: number): string {
  const a = new Date(start);
  const b = new Date(start + stepMs);
  if (stepMs % 86_400_000 === 0) {
    const day = (d: Date) => d.toLocaleDateString(undefined, { dateStyle: "medium" });
    return stepMs === 86_400_000 ? day(a) : `${day(a)} – ${day(new Date(start + stepMs - 1))}`;
  }
  const sameDay = a.toDateString() === b.toDateString();
  const end = sameDay ? b.toLocaleTimeString(undefined, { timeStyle: "short" }) : b.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  return `${a.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}–${end}`;
}

export function BarChart(props: BarChartProps) {
  const { series, starts, stepMs } = props;
  const [shown, setShown] = useState<boolean[]>(() => series.map(() => true));
  const [hovered, setHovered] = useState<number | null>(null);
  const totals = series.map((s) => s.values.reduce((a, b) => a + b, 0));
  const at = hovered !== null && hovered < starts.length ? hovered : null;
  return (
    <figure class="bar-chart">
      <div class="chart-legend">
        <p class="readout">{at === null ? "Totals over the range" : bucketLabel(starts[at], stepMs)}</p>
        <ul aria-label="Series shown in the chart">
          {series.map((s, i) => (
            <li key={s.label}>
              <button type="button" class="series-toggle" aria-pressed={shown[i]} onClick={() => setShown(shown.map((v, j) => (j === i ? !v : v)))}>
                <span class="swatch" style={{ background: s.colour }} aria-hidden="true" />
                {s.label}
              </button>
              <span class="value">{at === null ? totals[i] : s.values[at]}</span>
            </li>
          ))}
        </ul>
      </div>
      <Plot {...props} shown={shown} onHover={setHovered} />
      {props.note && <p class="chart-note">{props.note}</p>}
      <details class="chart-data">
        <summary>The chart's data as a table</summary>
        <Table columns={["Bucket", ...series.map((s) => s.label)]} caption={props.label}>
          {starts.map((t, i) => (
            <tr key={t}>
              <th scope="row">{bucketLabel(t, stepMs)}</th>
              {series.map((s) => (
                <td key={s.label}>{s.values[i]}</td>
              ))}
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}

/** The canvas: each bar spans its bucket (drawn at the bucket's middle), so traffic shows in the bucket it fell in. */
function Plot({ label, starts, stepMs, endMs, series, shown, onHover }: BarChartProps & { shown: boolean[]; onHover: (idx: number | null) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const scheme = useColourScheme();
  useEffect(() => {
    const el = box.current!;
    const fg = getComputedStyle(el).color;
    const grid = "rgba(128,128,128,0.25)";
    const startSec = (starts[0] ?? endMs - stepMs) / 1000;
    const bars = uPlot.paths.bars!({ size: [0.8, Infinity], align: 0 });
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 280),
        height: 300,
        series: [
          { label: "Time" },
          ...series.map((s, i) => ({ label: s.label, fill: s.colour, stroke: s.colour, width: 0, paths: bars, points: { show: false }, show: shown[i] })),
        ],
        axes: [
          { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid } },
          { stroke: fg, grid: { stroke: grid }, ticks: { stroke: grid }, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : "")) },
        ],
        scales: { x: { time: true, range: () => [startSec, endMs / 1000] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        legend: { show: false },
        cursor: { y: false, points: { show: false }, drag: { x: false, y: false } },
        hooks: { setCursor: [(u) => onHover(u.cursor.left !== undefined && u.cursor.left >= 0 ? (u.cursor.idx ?? null) : null)] },
      },
      [starts.map((t) => (t + stepMs / 2) / 1000), ...series.map((s) => s.values)],
      el,
    );
    plotRef.current = plot;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height: 300 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      plotRef.current = null;
    };
    // Toggles are applied to the drawn plot below, without drawing it anew.
  }, [starts, stepMs, endMs, series, scheme]);
  useEffect(() => {
    shown.forEach((show, i) => plotRef.current?.setSeries(i + 1, { show }));
  }, [shown]);
  return <div class="chart" ref={box} role="img" aria-label={`${label}. The table below the chart lists the same numbers.`} />;
}

/** Changes when the system theme does: the axes take the theme's text colour when drawn. */
function useColourScheme(): number {
  const [scheme, setScheme] = useState(0);
  useEffect(() => {
    const media = matchMedia("(prefers-color-scheme: dark)");
    const on = () => setScheme((n) => n + 1);
    media.addEventListener("change", on);
    return () => media.removeEventListener("change", on);
  }, []);
  return scheme;
}
