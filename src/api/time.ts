// RFC 3339 parsing for the logs and analytics requests. The proto pattern
// rule has already checked the shape; this checks the calendar (Feb 30) and
// converts to an instant.
import { DateTime } from "luxon";
import { ApiError } from "../api/errors.js";

export function invalidRequest(message: string): ApiError {
  return new ApiError("validation_failed", `validation failed: ${message}`);
}

/** The instant `value` names, or a 422 naming `field`. */
export function requireInstant(field: string, value: string): DateTime {
  const t = DateTime.fromISO(value, { setZone: true });
  if (!t.isValid) throw invalidRequest(`${field}: '${value}' is not a valid date-time`);
  return t.toUTC();
}
