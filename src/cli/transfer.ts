// `parapet export | import | migrate`: moving from the embedded engine to MongoDB (docs/storage.md).
// They read the embedded data directory whole, so the service must not hold it; there is no API.
import { loadConfig } from "../config.js";
import { copyEmbeddedToMongo, exportDataDir, importInto, type TransferSummary } from "../storage/transfer.js";
import { onDataDir, StoreLocked, withStore } from "./store.js";
import { UsageError } from "./usage.js";

function printSummary(summary: TransferSummary): void {
  for (const c of summary.collections) {
    process.stdout.write(`${c.name}\t${c.documents} documents${c.skipped ? `\t${c.skipped} already present` : ""}\n`);
    for (const r of c.refused ?? []) process.stderr.write(`${c.name}\tnot copied: ${r.reason}\n`);
  }
  // Everything else was copied; the command still fails, so that a script does not take it for complete.
  const refused = summary.collections.reduce((n, c) => n + (c.refused?.length ?? 0), 0);
  if (refused > 0) throw new Error(`${refused} document(s) could not be stored on the target (listed above); everything else was copied`);
}

export async function transfer(command: "export" | "import" | "migrate", args: string[]): Promise<void> {
  const files = command === "migrate" ? 0 : 1;
  if (args.length > files) throw new UsageError(`${command}: unexpected argument '${args[files]}'`);
  const file = args[0] ?? "";
  if (files === 1 && !file) throw new UsageError(`${command} needs FILE`);
  if (file.startsWith("-")) throw new UsageError(`${command}: unknown option '${file}'`);
  const uri = loadConfig().mongodbUri ?? "";
  if (command !== "export" && !uri) throw new UsageError(`${command} writes to MongoDB: set MONGODB_URI`);
  try {
    if (command === "export") printSummary(await onDataDir((dir) => exportDataDir(dir, file)));
    else if (command === "migrate") printSummary(await onDataDir((dir) => copyEmbeddedToMongo(dir, uri)));
    else printSummary(await withStore((db) => importInto(db, file)));
  } catch (err) {
    if (!(err instanceof StoreLocked)) throw err;
    throw new Error(`${command}: ${err.describeService()} and holds the data directory, which ${command} reads whole: ${err.stopHint(false)}`);
  }
}
