// `parapet` administration command (docs/cli.md). Key commands work on the store directly when no
// service holds it, and through the running service's API when one does (or when --url or --key
// ask for it); screen and logs tail always use the API; organizations and the transfers have no
// API and need the embedded store free. The command line is checked whole before anything is
// opened, so a typo is a usage error whatever state the store is in.
import { InputError, usage, UsageError } from "./usage.js";

const commands = ["serve", "keys", "orgs", "screen", "logs", "calibrate", "export", "import", "migrate", "help"];

/**
 * Returns the exit status, or -1 when the process keeps running (serve). Each command loads its own
 * modules: `screen` needs no storage engine or RPC client, and starts in a fraction of the time.
 */
async function run(command: string | undefined, action: string | undefined, rest: string[]): Promise<number> {
  switch (command) {
    case "serve":
      if (action !== undefined) throw new UsageError(`serve takes no arguments (configuration is environment variables); got '${action}'`);
      await import("../main.js");
      return -1;
    case "keys":
      await (await import("./keys.js")).keys(action, rest);
      return 0;
    case "orgs":
      await (await import("./organizations.js")).organizations(action, rest);
      return 0;
    case "screen":
      return (await import("./screen.js")).screen(action === undefined ? rest : [action, ...rest]);
    case "logs":
      await (await import("./logs-tail.js")).logs(action, rest);
      return 0;
    case "calibrate":
      return (await import("./calibrate.js")).calibrate(action === undefined ? rest : [action, ...rest]);
    case "export":
    case "import":
    case "migrate":
      await (await import("./transfer.js")).transfer(command, action === undefined ? rest : [action, ...rest]);
      return 0;
    case undefined:
    case "help":
      process.stdout.write(usage + "\n");
      return 0;
    default: {
      const near = command.length >= 3 ? commands.find((c) => c.startsWith(command.slice(0, 3)) || command.startsWith(c)) : undefined;
      throw new UsageError(`unknown command '${command}'${near ? ` (did you mean '${near}'?)` : ""}`);
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, action, ...rest] = argv;
  // `parapet logs tail | head` closes the pipe early: that ends the command, it is not a failure.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => process.exit(err.code === "EPIPE" ? 0 : 1));
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(usage + "\n");
    return 0;
  }
  try {
    return await run(command, action, rest);
  } catch (err) {
    if (err instanceof InputError) {
      process.stderr.write(`parapet: ${err.message}\n`);
      return 2;
    }
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`parapet: ${(err as Error).message}\n${usage}\n`);
      return 2;
    }
    process.stderr.write(`parapet: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
