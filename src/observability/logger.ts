// Structured JSON logs (one object per line). Screened content and keys are
// never passed to the logger: call sites log ids, sizes and outcomes only. One
// exception: bootstrap keys with no keys file and no terminal to go to are
// logged once, in a line that says so (src/auth/bootstrap.ts).
import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/** `destination`: standard output unless a test wants to read the lines. */
export function createLogger(level = "info", destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "parapet" },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Defence in depth: should a header map ever be logged, drop credentials.
    redact: { paths: ["authorization", "*.authorization", "headers.authorization"], remove: true },
  };
  return destination ? pino(options, destination) : pino(options);
}
