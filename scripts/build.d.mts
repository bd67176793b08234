/** Compiles src/ and gen/ to dist/ (or `outdir`); resolves with the path of the compiled entry point. */
export function buildService(outdir?: string): Promise<string>;
