// The command line of `npm run eval:exact` (usage in main.ts).

export type SplitName = "tune" | "test";

export interface Options {
  split: SplitName;
  /** The older split, `--by template`: templates only, every locale on both sides. */
  legacy: boolean;
  /** `--errors TYPE`: print that detector's misses and false hits (tune split only). */
  showErrors?: string;
  /** `--locale LOCALE`: only the errors of texts filled in that locale. */
  errorLocale?: string;
  writeDocs: boolean;
}

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

/** The options of `args`; prints the problem and exits 2 when they are wrong. */
export function parseOptions(args: string[]): Options {
  const arg = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const splitArg = arg("--split") ?? "test";
  if (!["tune", "test", "eval"].includes(splitArg)) fail(`--split is tune or test (eval is another name for test), not ${splitArg}.`);
  const split: SplitName = splitArg === "tune" ? "tune" : "test";
  const by = arg("--by") ?? "template+locale";
  if (by !== "template+locale" && by !== "template") fail(`--by is template+locale (the default) or template, not ${by}.`);
  const showErrors = arg("--errors");
  if (showErrors && split !== "tune") fail("--errors is only available on the tune split (evaluation data stays unseen).");
  return { split, legacy: by === "template", showErrors, errorLocale: arg("--locale"), writeDocs: args.includes("--write-docs") };
}
