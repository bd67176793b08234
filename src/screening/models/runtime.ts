// The configured models of this thread (docs/learned-detectors.md#configured-models):
// loaded at start-up, scored in the asynchronous pre-pass before the
// synchronous engine runs, and read by the detectors they serve. Without a
// configured model nothing here runs: the detectors ask one Map and go on.
import type { MessagePort, Worker } from "node:worker_threads";
import type { Detection, Span } from "../detector.js";
import { levelOf } from "../detectors/learned/runtime/levels.js";
import { normalizeText } from "../normalize.js";
import type { Part } from "../parts.js";
import { levelRank, moreConfident, strongest, type Level, type Location } from "../vocabulary.js";
import { HostClient, HostStartError, ModelUnavailableError } from "./host.js";
import type { ModelSlot } from "./labels.js";
import { checkDevice } from "./session.js";
import type { ModelSettings } from "./settings.js";
import { LoadedSlot, readSlotFiles, whereOf } from "./slot.js";
import { ModelSupervisor, type ModelThreadEvent, type ModelThreadState } from "./supervisor.js";
import type { SlotInfo } from "./worker.js";

/** What a screening worker is given to reach the model thread: a port (none while the thread restarts) and what its graphs output. */
export interface ModelLink {
  port?: MessagePort;
  slots: SlotInfo[];
}

/** A detector type placed at a location, as a policy places it. */
export interface Placement {
  type: string;
  location: string;
}

/**
 * A configured model that cannot serve (a folder without its tokenizer, a
 * graph that does not fit its task, labels that map to nothing, a device not
 * installed): one line naming the setting, for start-up to refuse with.
 */
export class ModelLoadError extends Error {
  constructor(message: string) {
    super(message.split("\n")[0]);
    this.name = "ModelLoadError";
  }
}

class Runtime {
  refs = 1;

  private constructor(
    readonly settings: ModelSettings,
    readonly slots: Map<ModelSlot, LoadedSlot>,
    /** On a screening worker: its client over the port it was given last. */
    private remote: HostClient | undefined,
    /** The model thread's supervisor, on the thread that started it. */
    readonly supervisor: ModelSupervisor | undefined,
  ) {}

  get client(): HostClient {
    return this.supervisor?.client ?? this.remote!;
  }

  /** A screening worker's new port, after the model thread restarted. */
  reconnect(port: MessagePort): void {
    this.remote = new HostClient(port);
  }

  /** Loads every configured model; on the main thread it starts the model thread, on a screening worker it connects to it through `link`. */
  static async load(settings: ModelSettings, link?: ModelLink): Promise<Runtime> {
    const files = [];
    for (const s of settings.slots) files.push(await readSlotFiles(s, settings));
    let supervisor: ModelSupervisor | undefined;
    let remote: HostClient | undefined;
    let infos;
    if (link) {
      remote = link.port ? new HostClient(link.port) : new HostClient(undefined, new ModelUnavailableError("the model thread is restarting; retry later"));
      infos = link.slots;
    } else {
      checkDevice(settings.device);
      try {
        const data = { slots: files.map((f) => ({ slot: f.settings.slot, spec: f.spec })), device: settings.device, threads: settings.threads };
        supervisor = await ModelSupervisor.start(data, (e) => listeners.forEach((l) => l(e)));
      } catch (err) {
        if (err instanceof HostStartError) throw new Error(`${whereOf(settings.slots[err.failed])}: ${err.message.split("\n")[0]}`);
        throw err;
      }
      infos = supervisor.slots;
    }
    const slots = new Map<ModelSlot, LoadedSlot>();
    try {
      for (const f of files) {
        const info = infos.find((i) => i.slot === f.settings.slot);
        if (!info) throw new Error(`${whereOf(f.settings)}: the model thread has no ${f.settings.slot} model`);
        slots.set(f.settings.slot, LoadedSlot.complete(f, info, settings));
      }
    } catch (err) {
      await supervisor?.close();
      throw err;
    }
    return new Runtime(settings, slots, remote, supervisor);
  }

  async close(): Promise<void> {
    await this.supervisor?.close();
  }
}

const listeners = new Set<(e: ModelThreadEvent) => void>();

/** Follows the model thread's crashes and restarts (the service's log and metrics, the screening pool's ports); returns the unsubscribe. */
export function onModelThread(listener: (e: ModelThreadEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let active: Runtime | undefined;
/** The active runtime's slots, or undefined: what the detectors look at first. */
let slots: Map<ModelSlot, LoadedSlot> | undefined;

/**
 * Loads the configured models (none: stops any loaded). Loading the same
 * settings again shares what is loaded (two services in one process, as tests
 * run them); each load is matched by a release.
 */
export async function loadModelRuntime(settings: ModelSettings | undefined, link?: ModelLink): Promise<void> {
  if (!settings?.slots.length) {
    await unloadModelRuntime();
    return;
  }
  if (active && JSON.stringify(active.settings) === JSON.stringify(settings)) {
    active.refs++;
    return;
  }
  let next: Runtime;
  try {
    next = await Runtime.load(settings, link);
  } catch (err) {
    throw new ModelLoadError(err instanceof Error ? err.message : String(err));
  }
  await unloadModelRuntime();
  active = next;
  slots = next.slots;
}

/** Undoes one load; the last release stops the model thread. */
export async function releaseModelRuntime(): Promise<void> {
  if (active && --active.refs <= 0) await unloadModelRuntime();
}

/** Stops using every configured model (tests; a load of other settings). */
export async function unloadModelRuntime(): Promise<void> {
  const r = active;
  active = undefined;
  slots = undefined;
  await r?.close();
}

/** What a screening worker needs to reach the model thread; undefined without models, or off the thread that started it. */
export function modelLink(): ModelLink | undefined {
  const s = active?.supervisor;
  return s && { port: s.port(), slots: s.slots };
}

/** On a screening worker: the new port the pool hands it once the model thread restarted. */
export function reconnectModelRuntime(port: MessagePort): void {
  if (active) active.reconnect(port);
  else port.close();
}

/** Whether the model thread runs, restarts, or stopped restarting; undefined without models or off the thread that started it (/readyz). */
export function modelThreadState(): ModelThreadState | undefined {
  return active?.supervisor?.state;
}

/** The running model thread, for tests that end it as a crash would; undefined while it is down. */
export function modelThreadForTests(): Worker | undefined {
  return active?.supervisor?.thread();
}

/**
 * What screening a character costs the thread that screens, relative to the
 * built-in detectors alone: each configured model's tokenizer (transformers.js)
 * costs about as much per character as every built-in detector together.
 */
export function textCost(): number {
  return 1 + (slots?.size ?? 0);
}

/** dev_info.model_version's part: each configured model as slot:name. */
export function modelVersions(): string[] {
  return active ? [...active.slots.values()].map((s) => s.version) : [];
}

/**
 * The asynchronous pre-pass: scores, with each configured model, the parts
 * where the policy places a detector it serves (every part when no placements
 * are given), normalized as the engine does, so the synchronous detectors can
 * read the results. The windows of all of a request's parts go to the model
 * thread as one job per model. A no-op without models.
 */
export async function prepareModels(parts: readonly Part[], placements?: readonly Placement[], deadline?: number): Promise<void> {
  const r = active;
  if (!r) return;
  const normalized = new Map<Part, string>();
  const textOf = (p: Part) => {
    let t = normalized.get(p);
    if (t === undefined) normalized.set(p, (t = normalizeText(p.text).text));
    return t;
  };
  const jobs: Promise<unknown>[] = [];
  for (const s of r.slots.values()) {
    const at = placements && new Set(placements.filter((d) => s.types.has(d.type)).map((d) => d.location));
    if (at?.size === 0) continue;
    const texts = new Set<string>();
    for (const p of parts) {
      if (at && !at.has(p.location)) continue;
      const text = textOf(p);
      // Detectors give no level to blank text before asking for a score.
      if (text.trim() && !s.has(text)) texts.add(text);
    }
    if (texts.size) jobs.push(s.score([...texts], r.client, deadline));
  }
  await Promise.all(jobs);
}

/**
 * A text classifier's detection of a label for a normalized text the pre-pass
 * scored; undefined when no model serves the label or the pre-pass did not see
 * the text (the built-in detector then runs). Its span is the window that
 * scored highest.
 */
function classDetection(s: LoadedSlot, label: string, text: string, location: Location): Detection | undefined {
  const i = s.indexOf(label);
  const result = i === undefined ? undefined : s.cached(text);
  if (!result || !("scores" in result)) return undefined;
  const best = result.scores[i!];
  const level = levelOf(best.score, s.thresholds(label, location));
  return { level, spans: level === "l5_unlikely" ? [] : [{ start: best.start, end: best.end, level }], model: s.name };
}

/**
 * A text_model detector's detection with its configured model, if any:
 * `replace` takes the model's, `max` the more confident of the model's and
 * the built-in one's (the built-in one on a tie).
 */
export function withModel<P>(
  slot: "prompt_attack" | "moderation",
  label: string,
  text: string,
  location: Location,
  builtIn: (text: string, arg: P) => Detection,
  arg: P,
): Detection {
  const s = slots?.get(slot);
  const model = s && classDetection(s, label, text, location);
  if (!model) return builtIn(text, arg);
  if (s.combine === "replace") return model;
  const other = builtIn(text, arg);
  return moreConfident(model, other);
}

/** The model's spans of a pii label in a normalized text the pre-pass scored, each with its level; undefined when the built-in detector alone should run. */
function entitySpans(s: LoadedSlot, label: string, text: string, location: Location): Span[] | undefined {
  if (s.indexOf(label) === undefined) return undefined;
  const result = s.cached(text);
  if (!result || !("entities" in result)) return undefined;
  const t = s.thresholds(label, location);
  return result.entities.filter((e) => e.label === label).map((e) => ({ start: e.start, end: e.end, level: levelOf(e.score, t) }));
}

function levelOfSpans(spans: Span[], found: boolean): Level {
  return spans.length ? strongest(spans.map((x) => x.level!)) : found ? "l5_unlikely" : "no_level";
}

/**
 * A pii detector's detection with the configured token classifier, if it
 * maps the detector's label: `replace` reports the model's spans alone; `max`
 * merges them with the exact detector's, a span both found reported once (the
 * exact detector's, at the stronger of the two levels).
 */
export function withEntities(label: string, text: string, location: Location, exact: (text: string) => Detection): Detection {
  const s = slots?.get("pii");
  const found = s && entitySpans(s, label, text, location);
  if (!found) return exact(text);
  const flagged = found.filter((x) => x.level !== "l5_unlikely");
  if (s.combine === "replace") return { level: levelOfSpans(flagged, found.length > 0), spans: flagged, model: s.name };
  const e = exact(text);
  // Exact spans carry their detection's level, so a stronger model span elsewhere does not lift them over the threshold.
  const spans: Span[] = e.spans.map((x) => (x.level || e.level === "no_level" ? x : { ...x, level: e.level }));
  let used = false;
  for (const m of flagged) {
    const same = spans.findIndex((x) => x.start < m.end && m.start < x.end);
    if (same < 0) {
      spans.push(m);
      used = true;
    } else if (levelRank[m.level!] < levelRank[spans[same].level ?? "no_level"]) {
      spans[same] = { ...spans[same], level: m.level };
      used = true;
    }
  }
  if (!used) return found.length && e.level === "no_level" ? { ...e, level: "l5_unlikely" } : e;
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  return { ...e, level: strongest([e.level, ...flagged.map((x) => x.level!)]), spans, model: s.name };
}
