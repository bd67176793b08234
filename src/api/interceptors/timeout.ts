// Request deadline (docs/decisions.md#rate-limits-and-deadlines). The handler's work is not cancelled (detectors
// are synchronous), but the caller gets 504 instead of waiting indefinitely.
import type { Interceptor } from "@connectrpc/connect";
import { ApiError } from "../errors.js";

export function timeoutInterceptor(ms: number): Interceptor {
  return (next) => async (req) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ApiError("timeout", `the request did not complete within ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([next(req), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
