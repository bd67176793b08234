// The model thread seen from the threads that screen: the main thread starts
// it (ModelHost) and hands each screening worker a port of its own to it;
// every thread sends its windows through a HostClient.
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import type { ModelSlot } from "./labels.js";
import type { Windows } from "./windows.js";
import { nativeCallWord, terminateBetweenNativeCalls, type NativeCallWord } from "../native-calls.js";
import type { DescribeReply, HostData, HostMessage, HostReady, Job, JobReply, SlotInfo, ThreadData } from "./worker.js";

// Compiled (dist/) the thread loads its JavaScript directly; from the
// TypeScript sources (tests, tsx) it first registers tsx's loader.
const ENTRY = import.meta.url.endsWith(".js") ? new URL("./worker.js", import.meta.url) : new URL("./worker-entry.mjs", import.meta.url);

/** The model thread's graphs did not load; `failed` is the index of the slot whose graph failed. */
export class HostStartError extends Error {
  constructor(
    message: string,
    readonly failed: number,
  ) {
    super(message);
  }
}

/** Inference past the request's deadline was dropped. */
export class ModelDeadlineError extends Error {}

/**
 * The model thread cannot answer now: it crashed and is restarting, or it
 * stopped (docs/learned-detectors.md#when-the-model-thread-crashes). The
 * request is answered 503 with Retry-After, as an overloaded pool answers.
 */
export class ModelUnavailableError extends Error {
  constructor(
    message: string,
    /** Whole seconds a client should wait before retrying. */
    readonly retryAfterS = 1,
  ) {
    super(message);
    this.name = "ModelUnavailableError";
  }
}

type Endpoint = Worker | MessagePort;

export class HostClient {
  private next = 1;
  /** Why the model thread can no longer answer, once it cannot. */
  private gone: Error | undefined;
  private readonly waiting = new Map<number, { resolve: (out: Float32Array) => void; reject: (e: Error) => void }>();
  private readonly described = new Map<number, { resolve: (slots: SlotInfo[]) => void; reject: (e: Error) => void }>();

  /** Without an endpoint the client is down from the start: every call fails with `gone`. */
  constructor(
    private readonly endpoint?: Endpoint,
    gone?: Error,
  ) {
    this.gone = gone;
    if (!endpoint) return;
    endpoint.on("message", (m: JobReply | DescribeReply) => {
      if ("describe" in m) {
        this.described.get(m.describe)?.resolve(m.slots);
        this.described.delete(m.describe);
        this.idle();
        return;
      }
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      this.idle();
      if ("out" in m) w.resolve(m.out);
      else w.reject(m.expired ? new ModelDeadlineError(m.error) : new Error(m.error));
    });
    // A port whose other end closed (the model thread stopped): nothing will answer.
    if (!(endpoint instanceof Worker)) endpoint.on("close", () => this.fail(new ModelUnavailableError("the model thread is gone (it crashed or stopped); retry later")));
    endpoint.unref();
  }

  /** Keeps the process alive only while answers are awaited (a command's last await, not an idle service). */
  private busy(): void {
    if (this.waiting.size + this.described.size === 0) this.endpoint?.ref();
  }

  private idle(): void {
    if (this.waiting.size + this.described.size === 0) this.endpoint?.unref();
  }

  /** The outputs of a text's windows: one row per window (classes) or per window token (tags), in window order. */
  run(slot: ModelSlot, w: Windows, deadline?: number): Promise<Float32Array> {
    const id = this.next++;
    const job: Job = { id, slot, ids: w.ids, lengths: w.lengths, deadline };
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      this.busy();
      this.waiting.set(id, { resolve, reject });
      this.endpoint!.postMessage(job satisfies HostMessage);
    });
  }

  /** What the model thread loaded (for a screening worker, which did not start it). */
  describe(): Promise<SlotInfo[]> {
    const id = this.next++;
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => {
      this.busy();
      this.described.set(id, { resolve, reject });
      this.endpoint!.postMessage({ describe: id } satisfies HostMessage);
    });
  }

  /** Every awaited answer fails (the thread is gone). */
  fail(err: Error): void {
    this.gone ??= err;
    for (const w of [...this.waiting.values(), ...this.described.values()]) w.reject(err);
    this.waiting.clear();
    this.described.clear();
    this.endpoint?.unref();
  }
}

export class ModelHost {
  private constructor(
    private readonly worker: Worker,
    /** The word marking the thread's calls into ONNX Runtime (src/screening/native-calls.ts); read by tests. */
    readonly nativeCalls: NativeCallWord,
    readonly client: HostClient,
    readonly slots: SlotInfo[],
  ) {}

  /**
   * Starts the model thread and waits until every graph loaded and passed its
   * checks. `crashed` is told why, should the thread end other than by close().
   */
  static async start(data: HostData, crashed?: (cause: string) => void): Promise<ModelHost> {
    const nativeCalls = nativeCallWord();
    const worker = new Worker(ENTRY, { workerData: { ...data, nativeCalls } satisfies ThreadData });
    // Only the listeners added here are removed: Worker keeps its port referenced through listeners of its own.
    let listeners: { message: (m: HostReady) => void; error: (e: Error) => void; exit: (code: number) => void } | undefined;
    const ready = await new Promise<HostReady>((resolve, reject) => {
      listeners = { message: resolve, error: reject, exit: (code) => reject(new Error(`the model thread exited (${code}) before loading its models`)) };
      worker.once("message", listeners.message).once("error", listeners.error).once("exit", listeners.exit);
    }).finally(() => {
      worker.off("message", listeners!.message).off("error", listeners!.error).off("exit", listeners!.exit);
    });
    if (!ready.ready) {
      await terminateBetweenNativeCalls(worker, nativeCalls);
      throw new HostStartError(ready.error, ready.failed);
    }
    const client = new HostClient(worker);
    const host = new ModelHost(worker, nativeCalls, client, ready.slots);
    // An uncaught exception is followed by the exit: the exit fails what waits, with the exception as its cause.
    let error: string | undefined;
    worker.on("error", (err) => (error ??= `an uncaught exception: ${err.message.split("\n")[0]}`));
    host.onExit = (code) => {
      const cause = error ?? `it exited with code ${code}`;
      client.fail(new ModelUnavailableError(`the model thread crashed (${cause}); retry later`));
      crashed?.(cause);
    };
    worker.on("exit", host.onExit);
    return host;
  }

  private onExit: (code: number) => void = () => {};

  /** A new port to the model thread, for another thread (transfer it to that thread). */
  port(): MessagePort {
    const { port1, port2 } = new MessageChannel();
    this.worker.postMessage({ connect: port2 } satisfies HostMessage, [port2]);
    return port1;
  }

  /** The thread itself, for tests that end it as a crash would (docs/learned-detectors.md#when-the-model-thread-crashes). */
  get thread(): Worker {
    return this.worker;
  }

  async close(): Promise<void> {
    this.worker.off("exit", this.onExit);
    this.client.fail(new ModelUnavailableError("the model thread was stopped"));
    await terminateBetweenNativeCalls(this.worker, this.nativeCalls);
  }
}
