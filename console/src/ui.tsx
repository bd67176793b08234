// Shared pieces: loading / error / empty states, tables, the async-call hook,
// and the span highlighter used by the playground and the log detail.
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { problemOf, type Problem } from "./api.js";
import { colourOf } from "./catalogue.js";

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

export function ErrorBox({ problem }: { problem: Problem }) {
  return (
    <div class="error" role="alert">
      <strong>{problem.title}.</strong> {problem.detail}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/** A table that scrolls sideways on a narrow window; `children` are its body rows. */
export function Table({ columns, caption, children }: { columns: string[]; caption?: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Badge({ type, children }: { type: string; children?: ComponentChildren }) {
  return <span class={`badge c${colourOf(type)}`}>{children ?? type}</span>;
}

export interface AsyncState<T> {
  data?: T;
  problem?: Problem;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change; the latest call wins, so a slow answer never overwrites a newer one. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): AsyncState<T> {
  const [state, setState] = useState<{ data?: T; problem?: Problem; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const run = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true, problem: undefined }));
    load().then(
      (data) => mine === seq.current && setState({ data, loading: false }),
      (err) => mine === seq.current && setState({ problem: problemOf(err), loading: false }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

/** `value` after it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export interface Span {
  start: number;
  end: number;
  detectorType: string;
  labels?: string[];
}

/** `text` with `spans` (code points, half-open) marked; overlapping spans are merged into the first. */
export function Highlighted({ text, spans }: { text: string; spans: Span[] }) {
  const points = Array.from(text);
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: ComponentChildren[] = [];
  let at = 0;
  for (const s of sorted) {
    if (s.start < at || s.start >= points.length) continue;
    if (s.start > at) out.push(points.slice(at, s.start).join(""));
    const end = Math.min(s.end, points.length);
    const title = `${s.detectorType}${s.labels?.length ? ` (${s.labels.join(", ")})` : ""}`;
    out.push(
      <mark class={`span c${colourOf(s.detectorType)}`} title={title} data-detector={s.detectorType}>
        {points.slice(s.start, end).join("")}
        <span class="visually-hidden"> [{title}]</span>
      </mark>,
    );
    at = end;
  }
  if (at < points.length) out.push(points.slice(at).join(""));
  return <span class="text">{out}</span>;
}

export function shortTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}
