// Screening request logs (docs/api.md#log-entry). One document per POST /v2/guard, in a
// time-series collection on MongoDB (time field `timestamp`, meta field
// `meta` = organization and project) with retention by TTL.
import { logFamilyOf } from "../screening/registry.js";
import type { LogFamily } from "../screening/vocabulary.js";
import type { Collection, Database, Doc } from "../storage/collection.js";
import { boundedLog } from "./bounded.js";

export interface StoredLogMessage {
  role: string;
  content: string;
  content_parts_json: string;
  size: string;
  index: number;
  name: string;
  tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[];
  refusal: string;
  tool_call_id: string;
}

/** A matched span of one part, as /v2/guard's payload spans: code points of the message content, or of the tool call's arguments. */
export interface StoredLogSpan {
  start: number;
  end: number;
  labels: string[];
}

export interface StoredLogResult {
  detector_type: string;
  result: string;
  message_id: number | null;
  tool_id: number | null;
  /** Absent when none were kept (older logs, sanitized requests, detectors without spans). */
  spans?: StoredLogSpan[];
  /** Present (true) only when the part had more spans than were kept. */
  spans_truncated?: true;
  /** The configured model that produced the detection (a model folder's name, or judge:<model>); absent for the built-in detectors. */
  model?: string;
}

export interface StoredLog extends Doc {
  /** request_uuid (UUIDv7). */
  _id: string;
  timestamp: Date;
  meta: { org_id: string; project_id: string };
  policy_id: string;
  /** The decision returned to the caller (always false in detect mode). */
  flagged: boolean;
  /** Whether any detector fired, whatever the mode (logs `detected_only`). */
  detected: boolean;
  /** Detector types that fired; custom guardrails appear as `custom_guardrail`. */
  fired: string[];
  /** The logs filter values (`detector_types`, docs/api.md#logs) this request matches; never empty. */
  families: string[];
  messages: StoredLogMessage[];
  results: { detector_type: string; result: string }[];
  msg_results: StoredLogResult[];
  event_metadata: string;
  /** The policy's version_id in force; absent on logs written before it was recorded. */
  policy_version?: number;
  /** Milliseconds spent screening; absent on logs written before it was recorded. */
  screening_ms?: number;
  /** The key that made the request; absent on logs written before it was recorded. */
  api_key_id?: string;
}

const LOGS_COLLECTION = "guard_logs";

/** Maps fired detector types to the logs filter values their definitions declare (docs/api.md#logs). */
export function familiesOf(fired: string[]): LogFamily[] {
  if (fired.length === 0) return ["no_detections"];
  const families = new Set<LogFamily>();
  for (const t of fired) {
    const family = logFamilyOf(t);
    if (family) families.add(family);
  }
  return [...families];
}

export class GuardLogs {
  private constructor(readonly logs: Collection<StoredLog>) {}

  static async open(db: Database, retentionSeconds: number): Promise<GuardLogs> {
    const logs = await db.collection<StoredLog>(LOGS_COLLECTION, {
      timeseries: { timeField: "timestamp", metaField: "meta", granularity: "seconds" },
      expireAfterSeconds: retentionSeconds,
    });
    // Logs queries filter on organization (+ project) and a time range, sorted by time.
    // _id (UUIDv7) breaks ties between logs of the same millisecond so offset paging is stable.
    await logs.createIndex({ name: "org_time", keys: { "meta.org_id": 1, timestamp: 1, _id: 1 } });
    await logs.createIndex({ name: "org_project_time", keys: { "meta.org_id": 1, "meta.project_id": 1, timestamp: 1, _id: 1 } });
    return new GuardLogs(logs);
  }

  /** Resolves once the log is durable (the engine's write acknowledgement); a log over one document's limit is stored cut (bounded.ts). */
  async append(log: StoredLog): Promise<void> {
    await this.logs.insertOne(boundedLog(log));
  }
}

export interface LogQuery {
  orgId: string;
  start: Date;
  end: Date;
  projectId?: string;
  flaggedOnly: boolean;
  detectedOnly: boolean;
  families: string[];
  /** The `order` extension (docs/api.md#logs): the same total order, read from its other end. */
  newestFirst: boolean;
  offset: number;
  limit: number;
}

/** One page, oldest first unless asked otherwise; `hasMore` is exact (one extra document is read to know). */
export async function pageLogs(logs: GuardLogs, q: LogQuery): Promise<{ logs: StoredLog[]; hasMore: boolean }> {
  const filter: Record<string, unknown> = { "meta.org_id": q.orgId, timestamp: { $gte: q.start, $lt: q.end } };
  if (q.projectId) filter["meta.project_id"] = q.projectId;
  if (q.flaggedOnly) filter.flagged = true;
  if (q.detectedOnly) filter.detected = true;
  if (q.families.length > 0) filter.families = { $in: q.families };
  // Both directions walk the same time indexes (MongoDB and the embedded planner read them backwards).
  const dir = q.newestFirst ? -1 : 1;
  const found = await logs.logs.find(filter, { sort: { timestamp: dir, _id: dir }, skip: q.offset, limit: q.limit + 1 });
  return { logs: found.slice(0, q.limit), hasMore: found.length > q.limit };
}
