// The REST variant's open streams (docs/streaming.md#rest-sessions): each kept
// under an id between calls, its calls run one after the other, and logged as
// it stands when it expires (no call for the idle time) or the server stops.
import { randomBytes } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { ApiError } from "../../api/errors.js";
import type { OpenStream } from "./open-stream.js";

interface RestSession {
  id: string;
  orgId: string;
  stream: OpenStream;
  timer?: NodeJS.Timeout;
  /** Calls on one session run one after the other. */
  chain: Promise<unknown>;
}

export class RestSessions {
  private readonly open = new Map<string, RestSession>();
  private readonly idleS: number;

  constructor(private readonly idleMs: number) {
    this.idleS = Math.round(idleMs / 1000);
  }

  /** Keeps `stream` under a new session id, answered; its idle clock starts. */
  add(stream: OpenStream): string {
    const id = `gst_${randomBytes(24).toString("base64url")}`;
    const s: RestSession = { id, orgId: stream.orgId, stream, chain: Promise.resolve() };
    this.open.set(id, s);
    this.touch(s);
    return id;
  }

  /** Runs `fn` on the session `id` of the caller's organization, after the session's earlier calls. */
  run<T>(id: string, orgId: string | undefined, fn: (stream: OpenStream) => Promise<T>): Promise<T> {
    const s = this.session(id, orgId);
    return this.serial(s, () => fn(s.stream));
  }

  /** As `run`, for the call that ends the session: once `fn` succeeds the session is gone. */
  end<T>(id: string, orgId: string | undefined, fn: (stream: OpenStream) => Promise<T>): Promise<T> {
    const s = this.session(id, orgId);
    return this.serial(s, async () => {
      const result = await fn(s.stream);
      this.open.delete(s.id);
      return result;
    });
  }

  /** Sessions open now (tests). */
  get size(): number {
    return this.open.size;
  }

  /** Shutdown: open sessions are logged as they stand and dropped. */
  async close(): Promise<void> {
    const open = [...this.open.values()];
    this.open.clear();
    for (const s of open) clearTimeout(s.timer);
    await Promise.all(open.map((s) => s.chain.finally(() => s.stream.abandon(uuidv7()))));
  }

  private session(id: string, orgId: string | undefined): RestSession {
    const s = this.open.get(id);
    // Another organization's session is as absent as one that never existed.
    if (!s || s.orgId !== orgId) {
      throw new ApiError(
        "not_found",
        `no open stream session '${id}': it was closed, expired after ${this.idleS} s without a call, or was lost in a server restart; open a new one`,
      );
    }
    return s;
  }

  private expire(s: RestSession): void {
    if (this.open.get(s.id) !== s) return;
    this.open.delete(s.id);
    void s.chain.finally(() => s.stream.abandon(uuidv7()));
  }

  private touch(s: RestSession): void {
    clearTimeout(s.timer);
    s.timer = setTimeout(() => this.expire(s), this.idleMs);
    s.timer.unref();
  }

  /** Runs `fn` after the session's earlier calls; the session's idle clock restarts when it ends. */
  private serial<T>(s: RestSession, fn: () => Promise<T>): Promise<T> {
    clearTimeout(s.timer);
    const run = s.chain.then(fn, fn);
    s.chain = run
      .catch(() => {})
      .finally(() => {
        if (this.open.get(s.id) === s) this.touch(s);
      });
    return run;
  }
}
