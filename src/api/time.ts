// RFC 3339 parsing for the logs and analytics requests. The proto pattern
// rule has already checked the shape; this checks the calendar (Feb 30) and
// converts to an instant.
import { DateTime } from "luxon";
import { validationFailed, type ApiError } from "./errors.js";

/** A 422 for `message`, which starts with the field's path (`end_time: ...`) when it is about one field. */
export function invalidRequest(message: string): ApiError {
  const m = /^([a-z_][\w.[\]]*): (.*)$/s.exec(message);
  return validationFailed([m ? { field: m[1], message: m[2], rule: "" } : { field: "", message, rule: "" }]);
}

// Hour 24 is ISO 8601's "end of day", which luxon accepts as the next midnight; RFC 3339
// (the contract's date-time) allows 00-23 only.
const HOUR_24 = /^\d{4}-\d{2}-\d{2}[Tt]24:/;

/** The instant `value` names, or a 422 naming `field`. */
export function requireInstant(field: string, value: string): DateTime {
  const t = HOUR_24.test(value) ? DateTime.invalid("hour 24") : DateTime.fromISO(value, { setZone: true });
  if (!t.isValid) throw invalidRequest(`${field}: '${value}' is not a valid date-time`);
  return t.toUTC();
}

/**
 * A time bound at the precision it was given (up to nanoseconds). `Date` and luxon keep
 * milliseconds only, so `.7759` would otherwise compare as `.775`.
 */
export interface PreciseInstant {
  /** Milliseconds since the epoch, the sub-millisecond part dropped. */
  ms: number;
  /** Nanoseconds past `ms` (0 to 999,999). */
  subMsNanos: number;
}

export function requirePreciseInstant(field: string, value: string): PreciseInstant {
  const ms = requireInstant(field, value).toMillis();
  const fraction = /[.,](\d+)/.exec(value.slice(value.search(/[Tt]/)))?.[1] ?? "";
  const subMsNanos = Number(fraction.slice(3, 9).padEnd(6, "0"));
  return { ms, subMsNanos };
}

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareInstants(a: PreciseInstant, b: PreciseInstant): number {
  return a.ms - b.ms || a.subMsNanos - b.subMsNanos;
}

/**
 * The first whole millisecond at or after `t`. Stored times are whole milliseconds, so
 * `stored >= t` is exactly `stored >= ceil(t)`, and `stored < t` is `stored < ceil(t)`.
 */
export function ceilToMillisecond(t: PreciseInstant): Date {
  return new Date(t.subMsNanos > 0 ? t.ms + 1 : t.ms);
}
