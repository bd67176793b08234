// Worker thread entry: workers start without the main thread's TypeScript
// loader, so register it before loading the worker's TypeScript module.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
