// Shared pieces: loading / error / empty states, tables, buttons that keep focus,
// the async-call hook, and the span highlighter used by the playground and the log detail.
import type { ComponentChildren, JSX } from "preact";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { announce } from "./announce.js";
import { problemOf, type Problem } from "./api.js";
import { colourOf } from "./catalogue.js";

/** A load that takes this long is said aloud, and so is its end; a quicker one only shows. */
const ANNOUNCE_LOADING_AFTER_MS = 500;

/**
 * The loading indicator. It is not a live region itself (one inserted with its text is not read
 * reliably): a load still running after a moment is announced, and then its end. `quiet` loads
 * (the playground screening as you type) only show: their result is announced instead.
 */
export function Loading({ what, quiet = false }: { what: string; quiet?: boolean }) {
  useEffect(() => {
    if (quiet) return;
    let said = false;
    const t = setTimeout(() => {
      said = true;
      announce(`Loading ${what}…`);
    }, ANNOUNCE_LOADING_AFTER_MS);
    return () => {
      clearTimeout(t);
      if (said) announce(`Finished loading ${what}.`);
    };
  }, [what, quiet]);
  return (
    <p class="loading">
      <span class="spinner" aria-hidden="true" /> Loading {what}…
    </p>
  );
}

/** A failure in words; `id` lets the field it is about point at it (aria-describedby). */
export function ErrorBox({ problem, id }: { problem: Problem; id?: string }) {
  return (
    <div class="error" role="alert" id={id}>
      <strong>{problem.title}.</strong> {problem.detail}
    </div>
  );
}

/**
 * A button that keeps keyboard focus while its action runs or while it has nothing to do:
 * `inactive` sets aria-disabled and ignores activation (Enter in a form field included), where
 * `disabled` would drop focus to the top of the page.
 */
export function ActionButton({ inactive, onClick, children, ...rest }: JSX.ButtonHTMLAttributes<HTMLButtonElement> & { inactive: boolean }) {
  return (
    <button
      type="button"
      {...rest}
      aria-disabled={inactive ? "true" : undefined}
      onClick={(e) => {
        if (inactive) e.preventDefault();
        else onClick?.(e);
      }}
    >
      {children}
    </button>
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
