// Ending a worker thread only between native calls. Worker.terminate() stops
// a thread wherever it is; when that is inside a native addon built with C++
// exceptions (cld's CLD2 binding, onnxruntime-node), the addon's next call
// into Node-API fails, the failure is thrown as a C++ Napi::Error nothing
// catches, and std::terminate aborts the whole process, not just the thread.
// So each thread that makes such calls marks them in a shared word, and the
// thread that ends it claims the word: at once when no call runs, else by
// asking the running call to hand it over as it leaves (a thread running
// call after call would otherwise never be caught between two). Once claimed,
// no new call starts, and the thread is terminated.
import type { Worker } from "node:worker_threads";

const IDLE = 0;
const INSIDE = 1;
const STOPPING = 2;
/** Inside a call, and asked to stop: leaving the call moves the word to STOPPING, not IDLE. */
const INSIDE_STOP_ASKED = 3;

/** A thread's native-call word, shared with the thread that may end it. */
export type NativeCallWord = Int32Array;

export function nativeCallWord(): NativeCallWord {
  return new Int32Array(new SharedArrayBuffer(4));
}

/** Thrown instead of starting a native call in a thread that is being ended. */
export class ThreadStoppingError extends Error {
  constructor() {
    super("this thread is being stopped");
  }
}

let own: NativeCallWord | undefined;

/** Called once by a worker thread's entry with the word its creator holds. */
export function markNativeCalls(word: NativeCallWord): void {
  own = word;
}

function enter(): void {
  if (own && Atomics.compareExchange(own, 0, IDLE, INSIDE) !== IDLE) throw new ThreadStoppingError();
}

function leave(): void {
  if (!own) return;
  if (Atomics.compareExchange(own, 0, INSIDE, IDLE) !== INSIDE) Atomics.store(own, 0, STOPPING);
  Atomics.notify(own, 0);
}

/** Runs a synchronous native call, marked. */
export function nativeCall<T>(call: () => T): T {
  enter();
  try {
    return call();
  } finally {
    leave();
  }
}

/** Runs a native call that settles a promise (onnxruntime-node's run defers the synchronous call to setImmediate), marked until it settles. */
export async function nativeCallAsync<T>(call: () => Promise<T>): Promise<T> {
  enter();
  try {
    return await call();
  } finally {
    leave();
  }
}

// Atomics.waitAsync is in Node 16 and later; TypeScript's ES2022 library does not declare it.
type WaitAsync = (word: Int32Array, index: number, value: number, timeoutMs?: number) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** Resolves once the word no longer holds `value` (at once if it does not), or after `timeoutMs`. */
export async function whileWordIs(word: NativeCallWord, value: number, timeoutMs?: number): Promise<void> {
  const waited = waitAsync(word, 0, value, timeoutMs);
  if (waited.async) await waited.value;
}

/**
 * Terminates `worker` once it is outside native calls. A call still running after `maxWaitMs` (a graph that never returns)
 * is not waited for further: the thread is terminated anyway, which is what a stuck thread needs.
 */
export async function terminateBetweenNativeCalls(worker: Worker, word: NativeCallWord, maxWaitMs = 10_000): Promise<number> {
  const until = Date.now() + maxWaitMs;
  for (;;) {
    const was = Atomics.compareExchange(word, 0, IDLE, STOPPING);
    if (was === IDLE || was === STOPPING) break;
    // A call runs: ask it to hand the word over as it leaves (unless it just left, then claim again).
    if (was === INSIDE && Atomics.compareExchange(word, 0, INSIDE, INSIDE_STOP_ASKED) !== INSIDE) continue;
    const left = until - Date.now();
    if (left <= 0) break;
    await whileWordIs(word, INSIDE_STOP_ASKED, left);
  }
  return worker.terminate();
}
