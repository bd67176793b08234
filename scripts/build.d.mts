/** Compiles src/ and gen/ to dist/ (or `outdir`); resolves with the path of the compiled entry point. */
export function buildService(outdir?: string): Promise<string>;
/** Bundles the browser console into `outdir` (default dist/console); resolves with `outdir`. */
export function buildConsole(outdir?: string): Promise<string>;
