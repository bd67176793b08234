// A stream outlives the call's deadline: its own storage steps (opening a
// GuardStream, closing it, logging an abandoned stream) each get a fresh one.
import { withoutStorageDeadline, withStorageDeadline } from "../../storage/deadline.js";

/** Storage calls of a stream's own steps, each under a fresh request deadline rather than the call's, which may be long past. */
export function stepDeadline<R>(ms: number, fn: () => Promise<R>): Promise<R> {
  return withoutStorageDeadline(() => withStorageDeadline(Date.now() + ms, fn));
}
