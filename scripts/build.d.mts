/** Compiles src/ and gen/ to dist/; resolves with the path of the compiled entry point. */
export function buildService(): Promise<string>;
