// RFC 3339 parsing for the logs and analytics requests. The proto pattern
// rule has already checked the shape; this checks the calendar (Feb 30) and
// converts to an instant.
import { DateTime } from "luxon";

export function parseInstant(value: string): DateTime | null {
  const t = DateTime.fromISO(value, { setZone: true });
  return t.isValid ? t.toUTC() : null;
}
