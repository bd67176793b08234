// How many judge calls are in flight at once, over all requests
// (PARAPET_JUDGE_CONCURRENCY): a call waits for a slot until its request's
// judge budget ends, and is skipped past it; the wait line is bounded too, so a
// burst cannot pile up more waiting calls than the judge could answer in time.

export class SlotUnavailable extends Error {
  constructor(why: string) {
    super(why);
    this.name = "SlotUnavailable";
  }
}

interface Waiter {
  grant: (release: () => void) => void;
  timer: NodeJS.Timeout;
}

export class Limiter {
  private active = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly max: number,
    /** Calls that may wait for a slot; past it a call is skipped at once. */
    private readonly maxWaiting = max * 8,
  ) {}

  /** Calls in flight and waiting (tests and metrics read it). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }

  /** A slot, released by calling the function returned; rejects with SlotUnavailable when none frees before `deadline`. */
  acquire(deadline: number): Promise<() => void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new SlotUnavailable(`${this.waiting.length} judge calls already waiting for a slot`));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(
          () => {
            const i = this.waiting.indexOf(waiter);
            if (i >= 0) this.waiting.splice(i, 1);
            reject(new SlotUnavailable(`all ${this.max} judge calls busy until the deadline`));
          },
          Math.max(0, deadline - Date.now()),
        ),
      };
      this.waiting.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant(this.releaser());
      } else this.active--;
    };
  }
}
