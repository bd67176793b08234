// A thread that makes marked calls back to back, with no turn of its event loop between them (as the model
// thread runs batch after batch), counting each completed call in `done`.
import { register } from "tsx/esm/api";
import { workerData } from "node:worker_threads";

register();
const { markNativeCalls, nativeCall } = await import("../../../src/screening/native-calls.ts");
const { word, done, ms } = workerData;
markNativeCalls(word);
for (;;) {
  try {
    nativeCall(() => {
      const until = Date.now() + ms;
      while (Date.now() < until);
      Atomics.add(done, 0, 1);
    });
  } catch {
    // Being ended: no call starts any more; wait to be terminated.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
}
