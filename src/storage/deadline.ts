// The deadline of the work that called storage (docs/storage.md#mongodb-deadlines). The request
// timeout interceptor sets it for everything a request does, and storage engines read it, so that
// retries during an outage end before the request's own deadline and the caller gets a prompt 503
// instead of a 504 while the handler keeps retrying. It lives in storage/ because storage may not
// import the API layer; AsyncLocalStorage carries it through every await of the request, including
// work the request starts without waiting for (a last-used write), which then stops at the same time.
//
// Only a time, not the request's AbortSignal: Connect aborts that signal when the handler returns,
// which would cancel the writes a request leaves running on purpose.

import { AsyncLocalStorage } from "node:async_hooks";

const current = new AsyncLocalStorage<number>();
const startup = new AsyncLocalStorage<true>();

/** Runs `fn` with storage calls bounded by `at` (epoch ms); an enclosing, sooner deadline still applies. */
export function withStorageDeadline<R>(at: number, fn: () => R): R {
  const outer = current.getStore();
  return current.run(outer === undefined ? at : Math.min(outer, at), fn);
}

/** Runs `fn` outside any request's deadline: work of the process that a request only happened to start. */
export function withoutStorageDeadline<R>(fn: () => R): R {
  return current.exit(fn);
}

/** Epoch ms after which no storage attempt of the current call may start, when it runs on behalf of a request. */
export function storageDeadline(): number | undefined {
  return current.getStore();
}

/**
 * Runs `fn` as start-up work (migrations, collection conversions, index builds on existing data):
 * its storage calls are not held to the per-call retry budget made for requests, since a step may
 * take as long as the data it goes through (docs/storage.md#mongodb-start-up-work).
 */
export function withStartupWork<R>(fn: () => R): R {
  return current.exit(() => startup.run(true, fn));
}

/** Whether the current storage call is start-up work (withStartupWork) rather than a request's. */
export function isStartupWork(): boolean {
  return startup.getStore() === true;
}
