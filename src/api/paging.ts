// Cursor paging of the list endpoints (docs/api.md#paging). The order is (created time, id), which
// never changes for a stored resource, so a cursor names a position rather than an offset: pages
// neither repeat nor skip what existed when listing began, whatever is created or deleted meanwhile.
//
// A cursor is opaque to clients. It carries the list it belongs to, so a cursor of another list
// (or a hand-made one) is a 422 rather than a silently wrong page; it is not signed, because
// forging one only moves the position inside the caller's own organization.
import { validationFailed } from "./errors.js";

export interface PagePosition {
  created: Date;
  id: string;
}

export const DEFAULT_PAGE_LIMIT = 100;

const ID_MAX = 200;

function encodeCursor(list: string, last: PagePosition): string {
  return Buffer.from(JSON.stringify([list, last.created.getTime(), last.id])).toString("base64url");
}

/** The position after which the page starts; null for the first page. Throws a 422 for anything but a cursor of `list`. */
export function decodeCursor(list: string, cursor: string | undefined): PagePosition | null {
  if (cursor === undefined || cursor === "") return null;
  const invalid = () =>
    validationFailed([{ field: "cursor", message: "not a cursor of this list; pass next_cursor from the previous page unchanged", rule: "paging.cursor" }]);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw invalid();
  const [kind, ms, id] = parsed as unknown[];
  if (kind !== list || !Number.isSafeInteger(ms) || typeof id !== "string" || id.length === 0 || id.length > ID_MAX) throw invalid();
  const created = new Date(ms as number);
  if (Number.isNaN(created.getTime())) throw invalid();
  return { created, id };
}

/** The page and the cursor of the next one, from up to `limit + 1` items in order. */
export function pageOf<T>(list: string, items: T[], limit: number, position: (item: T) => PagePosition): { items: T[]; nextCursor?: string } {
  if (items.length <= limit) return { items };
  const page = items.slice(0, limit);
  return { items: page, nextCursor: encodeCursor(list, position(page[page.length - 1])) };
}

/** Whether `p` comes after `after` in list order. */
export function isAfter(p: PagePosition, after: PagePosition | null): boolean {
  if (!after) return true;
  const d = p.created.getTime() - after.created.getTime();
  return d > 0 || (d === 0 && p.id > after.id);
}
