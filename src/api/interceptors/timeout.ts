// Request deadline (docs/decisions.md#rate-limits-and-deadlines). Past it the caller gets 504. The
// deadline also reaches the work itself: screening checks it between detectors (guard/service.ts),
// and every storage call the request makes, awaited or not, runs under it (storage/deadline.ts), so
// storage retries during an outage end just before it with a 503 and Retry-After, and no retry of
// an answered request starts afterwards.
import type { Interceptor } from "@connectrpc/connect";
import { withStorageDeadline } from "../../storage/deadline.js";
import { ApiError } from "../errors.js";

export function timeoutInterceptor(ms: number): Interceptor {
  return (next) => async (req) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError("timeout", `the request did not complete within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([withStorageDeadline(Date.now() + ms, () => next(req)), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
