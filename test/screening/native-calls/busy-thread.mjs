// A thread that marks one long call as native (a JavaScript loop standing in for an addon's call, so
// that ending it early is observable), counting in `done` when the call completes.
import { register } from "tsx/esm/api";
import { parentPort, workerData } from "node:worker_threads";

register();
const { markNativeCalls, nativeCall } = await import("../../../src/screening/native-calls.ts");
const { word, done, ms } = workerData;
markNativeCalls(word);
parentPort.postMessage("started");
nativeCall(() => {
  const until = Date.now() + ms;
  while (Date.now() < until);
  Atomics.add(done, 0, 1);
});
// Keeps the thread alive after the call, as a worker waiting for its next job is.
setInterval(() => {}, 1000);
