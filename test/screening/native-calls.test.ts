// Threads that call native addons are ended only between those calls (src/screening/native-calls.ts): terminating one
// inside cld or onnxruntime-node aborts the whole process.
import { Worker } from "node:worker_threads";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { markNativeCalls, nativeCall, nativeCallWord, terminateBetweenNativeCalls, ThreadStoppingError, whileWordIs } from "../../src/screening/native-calls.js";
import { ModelHost } from "../../src/screening/models/host.js";
import { readSlotFiles } from "../../src/screening/models/slot.js";
import { windowsOf } from "../../src/screening/models/windows.js";
import { fixture, settings } from "./models/support.js";

describe("ending a thread between native calls", () => {
  it("waits for the call the thread is in, then ends it before another starts", async () => {
    const word = nativeCallWord();
    const done = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL("./native-calls/busy-thread.mjs", import.meta.url), { workerData: { word, done, ms: 400 } });
    await once(worker, "message");
    // The call has started when the word leaves idle (0).
    await whileWordIs(word, 0);
    const exit = once(worker, "exit");
    await terminateBetweenNativeCalls(worker, word);
    // The call ran to its end: a plain terminate() would have stopped the loop inside it.
    expect(Atomics.load(done, 0)).toBe(1);
    // And the word stays claimed: the thread starts no native call after it.
    expect(Atomics.load(word, 0)).toBe(2);
    await exit;
  });

  it("ends a thread that makes call after call after the one it is in, not when it runs out of work", async () => {
    const word = nativeCallWord();
    const done = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL("./native-calls/looping-thread.mjs", import.meta.url), { workerData: { word, done, ms: 20 } });
    // Wait for two calls to complete (each notifies the word as it leaves).
    while (Atomics.load(done, 0) < 2) await whileWordIs(word, Atomics.load(word, 0));
    const before = Atomics.load(done, 0);
    const exit = once(worker, "exit");
    await terminateBetweenNativeCalls(worker, word);
    // The call running when asked, and at most one that completed between the count and the ask: without the
    // hand-over the ending side is never quick enough between two calls and waits out its 10 s (about 500 calls).
    expect(Atomics.load(done, 0)).toBeLessThanOrEqual(before + 2);
    expect(Atomics.load(word, 0)).toBe(2);
    await exit;
  });

  it("refuses a native call in a thread being ended", () => {
    const word = nativeCallWord();
    Atomics.store(word, 0, 2);
    markNativeCalls(word);
    try {
      let called = false;
      expect(() => nativeCall(() => (called = true))).toThrow(ThreadStoppingError);
      expect(called).toBe(false);
    } finally {
      markNativeCalls(nativeCallWord());
    }
  });

  it("stops the model thread after the batch ONNX Runtime is running, without aborting the process", async () => {
    const s = settings({ PARAPET_PROMPT_ATTACK_MODEL: fixture("unigram-attack") });
    const files = await readSlotFiles(s.slots[0], s);
    const host = await ModelHost.start({ slots: [{ slot: "prompt_attack", spec: files.spec }], device: "cpu", threads: 1 });
    const large = windowsOf(
      files.tokenizer.encode("What is the weather today? ".repeat(25_000)),
      files.tokenizer.prefix,
      files.tokenizer.suffix,
      files.content,
      files.stride,
    );
    const job = expect(host.client.run("prompt_attack", large)).rejects.toThrow(/the model thread/);
    // Close while a batch is inside ONNX Runtime: before native calls were marked, this aborted the test process
    // ("terminate called after throwing an instance of 'Napi::Error'").
    await whileWordIs(host.nativeCalls, 0);
    const exit = once(host.thread, "exit");
    await host.close();
    await job;
    expect(await exit).toEqual([1]);
    expect(Atomics.load(host.nativeCalls, 0)).toBe(2);
  });
});
