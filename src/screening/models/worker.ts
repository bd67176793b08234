// The model thread (docs/decisions.md#model-runtime): the one place the ONNX
// graphs are loaded and run. onnxruntime-node's run() holds the thread that
// calls it until inference ends (its binding is synchronous; the promise only
// defers the call), so inference is kept off the threads that serve and
// screen requests. Every thread that screens (the main thread, each screening
// worker) tokenizes its own texts and sends their windows here, on its own
// port; this thread runs them in batches, one slot at a time, taking windows
// from the waiting jobs in turn so that a small request's windows go into the
// next batch however many windows a large request has queued.
import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import type { ModelSlot } from "./labels.js";
import { markNativeCalls, nativeCallAsync, ThreadStoppingError, type NativeCallWord } from "../native-calls.js";
import { ModelSession, type Device, type SessionSpec } from "./session.js";

export interface HostData {
  slots: { slot: ModelSlot; spec: SessionSpec }[];
  device: Device;
  threads: number;
}

/** What the thread is started with: its host's data and the word that marks its native calls (src/screening/native-calls.ts). */
export interface ThreadData extends HostData {
  nativeCalls: NativeCallWord;
}

/** What each slot's graph turned out to be, for the threads that read its outputs. */
export interface SlotInfo {
  slot: ModelSlot;
  outputs: number;
  probabilities: boolean;
}

/** `failed`: the index in HostData.slots of the graph that did not load. */
export type HostReady = { ready: true; slots: SlotInfo[] } | { ready: false; failed: number; error: string };

/** A text's windows for one slot (ids of every window, one after the other), and the epoch ms after which nobody waits for them. */
export interface Job {
  id: number;
  slot: ModelSlot;
  ids: Int32Array;
  lengths: Int32Array;
  deadline?: number;
}

export type JobReply = { id: number; out: Float32Array } | { id: number; error: string; expired?: true };

export type HostMessage = { connect: MessagePort } | { describe: number } | Job;

export type DescribeReply = { describe: number; slots: SlotInfo[] };

interface Endpoint {
  postMessage(m: unknown, transfer?: ArrayBuffer[]): void;
}

interface Pending {
  job: Job;
  from: Endpoint;
  windows: Int32Array[];
  next: number;
  rows: Float32Array[];
  done: number;
}

/** Windows considered for one batch; the session takes as many as fit (session.ts). */
const MAX_PICKS = 64;

const data = workerData as ThreadData;
markNativeCalls(data.nativeCalls);
const sessions = new Map<ModelSlot, ModelSession>();
const queues = new Map<ModelSlot, Pending[]>();
const infos: SlotInfo[] = [];
let draining = false;

function finish(p: Pending, reply: JobReply, transfer: ArrayBuffer[] = []): void {
  const q = queues.get(p.job.slot)!;
  q.splice(q.indexOf(p), 1);
  p.from.postMessage(reply, transfer);
}

/** One batch of a slot's waiting windows, taken from the jobs in turn. */
async function runBatch(slot: ModelSlot, q: Pending[]): Promise<void> {
  const session = sessions.get(slot)!;
  const picks: { p: Pending; w: number }[] = [];
  const taking = new Map<Pending, number>();
  for (let progress = true; progress && picks.length < MAX_PICKS; ) {
    progress = false;
    for (const p of q) {
      const w = p.next + (taking.get(p) ?? 0);
      if (w >= p.windows.length || picks.length >= MAX_PICKS) continue;
      picks.push({ p, w });
      taking.set(p, (taking.get(p) ?? 0) + 1);
      progress = true;
    }
  }
  const taken = picks.slice(0, session.batchOf(picks.map((x) => x.p.windows[x.w].length)));
  for (const x of taken) x.p.next++;
  let rows: Float32Array[];
  try {
    rows = await nativeCallAsync(() => session.runBatch(taken.map((x) => x.p.windows[x.w])));
  } catch (err) {
    // Being ended (src/screening/native-calls.ts): the jobs fail as the thread goes, as in any other stop.
    if (err instanceof ThreadStoppingError) return;
    const error = `inference failed: ${(err instanceof Error ? err.message : String(err)).split("\n")[0]}`;
    for (const p of new Set(taken.map((x) => x.p))) if (q.includes(p)) finish(p, { id: p.job.id, error });
    return;
  }
  taken.forEach((x, k) => {
    x.p.rows[x.w] = rows[k];
    x.p.done++;
  });
  for (const p of new Set(taken.map((x) => x.p))) {
    if (p.done < p.windows.length || !q.includes(p)) continue;
    const out = new Float32Array(p.rows.reduce((n, r) => n + r.length, 0));
    let at = 0;
    for (const r of p.rows) out.set(r, (at += r.length) - r.length);
    finish(p, { id: p.job.id, out }, [out.buffer]);
  }
}

async function drain(): Promise<void> {
  if (draining) return;
  draining = true;
  try {
    for (;;) {
      // Between batches, take in the jobs that arrived meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
      let any = false;
      for (const [slot, q] of queues) {
        const now = Date.now();
        for (const p of [...q]) if (p.job.deadline !== undefined && p.job.deadline < now) finish(p, { id: p.job.id, error: "the request deadline passed", expired: true });
        if (!q.length) continue;
        any = true;
        await runBatch(slot, q);
      }
      if (!any) return;
    }
  } finally {
    draining = false;
  }
}

function accept(job: Job, from: Endpoint): void {
  const windows: Int32Array[] = [];
  let at = 0;
  for (const len of job.lengths) windows.push(job.ids.subarray(at, (at += len)));
  const q = queues.get(job.slot);
  if (!q || windows.length === 0) {
    from.postMessage({ id: job.id, error: q ? "no windows" : `no ${job.slot} model on the model thread` } satisfies JobReply);
    return;
  }
  q.push({ job, from, windows, next: 0, rows: [], done: 0 });
  void drain();
}

function serve(port: MessagePort): void {
  port.on("message", (m: HostMessage) => {
    if ("connect" in m) serve(m.connect);
    else if ("describe" in m) port.postMessage({ describe: m.describe, slots: infos } satisfies DescribeReply);
    else accept(m, port);
  });
  if ("close" in port && port !== parentPort) {
    // A screening worker replaced after an overrun: nobody reads its answers any more.
    port.on("close", () => {
      for (const q of queues.values()) for (const p of [...q]) if (p.from === port) q.splice(q.indexOf(p), 1);
    });
  }
}

async function start(): Promise<void> {
  try {
    for (const { slot, spec } of data.slots) {
      const s = await nativeCallAsync(() => ModelSession.create(spec, { device: data.device, threads: data.threads }));
      sessions.set(slot, s);
      queues.set(slot, []);
      infos.push({ slot, outputs: s.outputs, probabilities: s.probabilities });
    }
  } catch (err) {
    parentPort!.postMessage({ ready: false, failed: sessions.size, error: err instanceof Error ? err.message : String(err) } satisfies HostReady);
    return;
  }
  serve(parentPort!);
  parentPort!.postMessage({ ready: true, slots: infos } satisfies HostReady);
}

await start();
