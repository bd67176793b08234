// Open streams per organization and in all: each holds a window of text and
// a policy in memory, so their number is bounded like any other resource.
import { ApiError } from "../../api/errors.js";

export class StreamCapacity {
  private readonly byOrg = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly maxPerOrg: number,
    private readonly maxTotal: number,
    /** Seconds a refused client should wait: an idle stream frees its place within the idle expiry. */
    private readonly retryAfterS: number,
  ) {}

  /** Takes a place for one stream of `org`; answers the function that gives it back (idempotent). */
  acquire(org: string): () => void {
    const n = this.byOrg.get(org) ?? 0;
    const retry = { "retry-after": String(this.retryAfterS) };
    if (n >= this.maxPerOrg) throw new ApiError("rate_limited", `this organization has ${n} open streams, the most it may hold; close one or retry later`, retry);
    if (this.total >= this.maxTotal) throw new ApiError("unavailable", `the server holds ${this.total} open streams, the most it may; retry later`, retry);
    this.byOrg.set(org, n + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byOrg.get(org) ?? 1) - 1;
      if (left > 0) this.byOrg.set(org, left);
      else this.byOrg.delete(org);
    };
  }

  /** Open streams (tests and metrics). */
  open(org?: string): number {
    return org === undefined ? this.total : (this.byOrg.get(org) ?? 0);
  }
}
