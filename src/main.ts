// `npm start`: run the service until SIGTERM/SIGINT, then stop gracefully.
import v8 from "node:v8";
import { startApp } from "./app.js";
import { loadConfig, type Config } from "./config.js";
import { createLogger } from "./observability/logger.js";
import { ModelLoadError } from "./screening/models/runtime.js";

// Most of what a request allocates dies young, but some outlives a scavenge
// and is promoted; by default V8 then lets the old generation grow up to four
// times the live size before collecting it, so resident memory under load is
// many times what is live. Doubling at most bounds it at the same throughput
// (figures: docs/operations.md). Process-wide, so screening workers get it
// too; set before anything large is allocated.
v8.setFlagsFromString("--heap-growing-percent=100");

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  // A wrong setting is the operator's to fix, not a bug: one line that names the variable and what it accepts
  // (every loadConfig message does), no stack trace, and an exit status of its own so supervisors can tell.
  process.stderr.write(`parapet: configuration error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
const log = createLogger(config.logLevel);

try {
  const app = await startApp(config, log);
  // A second signal during the drain ends it (docs/operations.md#shutdown).
  const secondSignal = new AbortController();
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return secondSignal.abort();
    stopping = true;
    // SIGTERM is how orchestrators and balancers' peers stop a replica: drain. SIGINT is a person at
    // a terminal (Ctrl-C), who has no balancer to wait for.
    const drainMs = signal === "SIGTERM" ? config.drainMs : 0;
    log.info({ signal, drain_seconds: drainMs / 1000 }, "shutting down");
    app.close({ drainMs, signal: secondSignal.signal }).then(
      () => {
        log.info("stopped");
        process.exit(0);
      },
      (err) => {
        log.error({ err: String(err) }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
} catch (err) {
  // A configured model that cannot serve is a setting to fix, told as loadConfig's are.
  if (err instanceof ModelLoadError) {
    process.stderr.write(`parapet: configuration error: ${err.message}\n`);
    process.exit(2);
  }
  log.fatal({ err: err instanceof Error ? err.message : String(err) }, "start-up failed");
  process.exit(1);
}
