// Structured JSON logs (one object per line). Screened content and keys are
// never passed to the logger: call sites log ids, sizes and outcomes only.
import { pino, type Logger } from "pino";

export type { Logger };

export function createLogger(level = "info"): Logger {
  return pino({
    level,
    base: { service: "parapet" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Defence in depth: should a header map ever be logged, drop credentials.
    redact: { paths: ["authorization", "*.authorization", "headers.authorization"], remove: true },
  });
}
