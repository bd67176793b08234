// `npm start`: run the service until SIGTERM/SIGINT, then stop gracefully.
import { startApp } from "./app.js";
import { loadConfig } from "./config.js";
import { createLogger } from "./observability/logger.js";

const config = loadConfig();
const log = createLogger(config.logLevel);

try {
  const app = await startApp(config, log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down");
    app.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err: String(err) }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
} catch (err) {
  log.fatal({ err: err instanceof Error ? err.message : String(err) }, "start-up failed");
  process.exit(1);
}
