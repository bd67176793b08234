// Generated document ids: 24 hex digits shaped like an ObjectId (4 bytes of
// seconds, then random), but a string, so `Doc._id: string` holds on both
// engines and ids sort roughly by creation time.

import { randomBytes } from "node:crypto";

export function newDocumentId(now = Date.now()): string {
  const head = Math.floor(now / 1000)
    .toString(16)
    .padStart(8, "0");
  return head + randomBytes(8).toString("hex");
}
