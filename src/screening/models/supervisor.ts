// The model thread's supervision (docs/learned-detectors.md#when-the-model-thread-crashes):
// a thread that ends other than by close() is started again with the same
// graphs after a delay that doubles while crashes follow each other; a thread
// that fails to start several times in a row is left stopped, and the
// service reports not ready. Meanwhile every call fails at once with
// ModelUnavailableError (503 with Retry-After), never waiting.
import type { MessagePort, Worker } from "node:worker_threads";
import { HostClient, ModelHost, ModelUnavailableError } from "./host.js";
import type { HostData, SlotInfo } from "./worker.js";

/** What happened to the model thread, for the log, the metrics and the threads that hold ports to it. */
export type ModelThreadEvent =
  | { kind: "crashed"; cause: string; restartInMs: number }
  | { kind: "restarted"; afterMs: number }
  | { kind: "start_failed"; cause: string; restartInMs: number }
  | { kind: "gave_up"; cause: string; failedStarts: number };

export type ModelThreadState = "up" | "restarting" | "stopped";

/** The first restart's delay; each crash within STABLE_MS of its start doubles it, up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 30_000;
/** A thread that ran this long before it crashed starts again after the first delay. */
const STABLE_MS = 60_000;
/** Starts that fail in a row (the graphs no longer load, the thread dies while loading) before restarts stop. */
const MAX_FAILED_STARTS = 5;

export class ModelSupervisor {
  private host: ModelHost;
  private down: HostClient | undefined;
  private state_: ModelThreadState = "up";
  private startedAt = Date.now();
  private delay = FIRST_DELAY_MS;
  private failedStarts = 0;
  private timer: NodeJS.Timeout | undefined;
  private starting: Promise<ModelHost | undefined> | undefined;
  private closed = false;

  private constructor(
    private readonly data: HostData,
    private readonly events: (e: ModelThreadEvent) => void,
    first: ModelHost,
  ) {
    this.host = first;
  }

  /** Starts the thread; a first start that fails throws (start-up refuses), as ModelHost.start does. */
  static async start(data: HostData, events: (e: ModelThreadEvent) => void): Promise<ModelSupervisor> {
    const made: { supervisor?: ModelSupervisor } = {};
    const host = await ModelHost.start(data, (cause) => made.supervisor?.crashed(cause));
    return (made.supervisor = new ModelSupervisor(data, events, host));
  }

  get state(): ModelThreadState {
    return this.state_;
  }

  /** What the graphs output: the same after every restart (the same graphs load). */
  get slots(): SlotInfo[] {
    return this.host.slots;
  }

  /** The client of the running thread; while it is down, one that fails every call at once. */
  get client(): HostClient {
    return this.down ?? this.host.client;
  }

  /** A port to the running thread for a screening worker; undefined while it is down. */
  port(): MessagePort | undefined {
    return this.state_ === "up" ? this.host.port() : undefined;
  }

  /** The running thread (tests end it to see it restarted). */
  thread(): Worker | undefined {
    return this.state_ === "up" ? this.host.thread : undefined;
  }

  private crashed(cause: string): void {
    if (this.closed) return;
    // A thread that ran long enough is not part of a crash loop: its restart comes at once.
    if (Date.now() - this.startedAt >= STABLE_MS) this.delay = FIRST_DELAY_MS;
    this.setDown(`the model thread crashed (${cause}) and is restarting; retry later`);
    this.events({ kind: "crashed", cause, restartInMs: this.delay });
    this.schedule();
  }

  private setDown(message: string): void {
    this.state_ = "restarting";
    this.down = new HostClient(undefined, new ModelUnavailableError(message, Math.max(1, Math.ceil(this.delay / 1000))));
  }

  private schedule(): void {
    const wait = this.delay;
    this.delay = Math.min(MAX_DELAY_MS, this.delay * 2);
    this.timer = setTimeout(() => void this.restart(wait), wait);
    // The service's listener keeps the process alive; a command that only scores does not wait for a restart.
    this.timer.unref();
  }

  private async restart(afterMs: number): Promise<void> {
    if (this.closed) return;
    this.starting = ModelHost.start(this.data, (cause) => this.crashed(cause)).then(
      (host) => host,
      (err: unknown) => {
        this.startFailed(err instanceof Error ? err.message.split("\n")[0] : String(err));
        return undefined;
      },
    );
    const host = await this.starting;
    this.starting = undefined;
    // Closed meanwhile: close() stops the new thread.
    if (!host || this.closed) return;
    this.host = host;
    this.down = undefined;
    this.state_ = "up";
    this.startedAt = Date.now();
    this.failedStarts = 0;
    this.events({ kind: "restarted", afterMs });
  }

  private startFailed(cause: string): void {
    if (this.closed) return;
    if (++this.failedStarts >= MAX_FAILED_STARTS) {
      this.state_ = "stopped";
      this.down = new HostClient(undefined, new ModelUnavailableError(`the model thread stopped restarting after ${this.failedStarts} failed starts (${cause})`, 30));
      this.events({ kind: "gave_up", cause, failedStarts: this.failedStarts });
      return;
    }
    this.setDown(`the model thread failed to start again (${cause}) and is restarting; retry later`);
    this.events({ kind: "start_failed", cause, restartInMs: this.delay });
    this.schedule();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await (await this.starting)?.close();
    await this.host.close();
  }
}
