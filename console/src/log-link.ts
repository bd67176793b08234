// The address of one logged request's detail page, linked from the logs list and
// from the impact preview's changed requests.

/** The timestamp goes along so the detail page can look the request up in its time range. */
export function logHref(log: { requestUuid: string; timestamp: string }): string {
  return `#/logs/${encodeURIComponent(log.requestUuid)}?at=${encodeURIComponent(log.timestamp)}`;
}
