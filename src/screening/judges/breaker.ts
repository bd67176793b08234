// A circuit breaker for the judge (docs/judges.md#faults): after `threshold`
// failed calls in a row the judge is not called for `cooldownMs` (requests get
// the fail mode at once instead of each waiting out a timeout), then one call
// may try; its success closes the circuit, its failure opens it again.

export type BreakerState = "closed" | "open" | "half_open";

export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | undefined;
  private trying = false;

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get state(): BreakerState {
    if (this.openedAt === undefined) return "closed";
    return this.now() - this.openedAt >= this.cooldownMs ? "half_open" : "open";
  }

  /** Whether a call may go out now: always when closed; once the cooldown is over, one trial at a time. */
  allow(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.trying) return false;
    this.trying = true;
    return true;
  }

  /** Records a success; true when it closed an open circuit. */
  success(): boolean {
    const wasOpen = this.openedAt !== undefined;
    this.failures = 0;
    this.openedAt = undefined;
    this.trying = false;
    return wasOpen;
  }

  /** A call that ended without saying anything about the judge (cut short by its request's deadline): a trial may go again. */
  abandon(): void {
    this.trying = false;
  }

  /** Records a failure; true when it opened the circuit (or opened it again after a failed trial). */
  failure(): boolean {
    this.failures++;
    const trial = this.trying;
    this.trying = false;
    if (trial || (this.openedAt === undefined && this.failures >= this.threshold)) {
      this.openedAt = this.now();
      return true;
    }
    return false;
  }
}
