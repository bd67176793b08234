// Custom guardrail expressions run on RE2 semantics (re2js): matching time is
// linear in the input whatever the pattern, so a user's expression cannot
// stall the request path. Constructs RE2 cannot run in linear time
// (backreferences, lookaround) fail to compile and are rejected.
import { RE2JS } from "re2js";

export type CompiledPattern = RE2JS;

/** The compiled pattern, or the reason it is rejected. */
export function compilePattern(source: string): { ok: true; pattern: CompiledPattern } | { ok: false; reason: string } {
  try {
    return { ok: true, pattern: RE2JS.compile(source) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Every non-empty match as a half-open UTF-16 range. */
export function findAll(pattern: CompiledPattern, text: string, limit = 100): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const m = pattern.matcher(text);
  while (out.length < limit && m.find()) {
    const start = m.start();
    const end = m.end();
    if (end > start) out.push({ start, end });
  }
  return out;
}
