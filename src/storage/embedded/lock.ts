// One process per data directory.
//
// The LOCK file is created atomically with its content (written to a private
// temporary file, then hard-linked into place: link(2) fails if LOCK exists), so
// a reader never sees a half-written lock. It records pid, host name and start
// time, and the owner touches its mtime every few seconds.
//
// A lock is stale, and taken over, when its owner is gone: on the same host
// the pid no longer exists (or is this very process from an earlier life, as
// PID 1 in a restarted container); on another host (a volume shared between
// containers) the heartbeat stopped for longer than `staleAfterMs`. Otherwise
// opening fails at once, naming the directory and the owner.
//
// Right after `kill -9` the owner's pid still exists until its parent reaps it
// (a zombie, which holds no files) or while the kernel tears it down: waiting
// for that is the difference between a restart that works and one that fails
// half the time. A zombie counts as gone; an exiting process is waited for, with
// backoff, for at most `waitMs`; a running one fails at once.
//
// A running owner may also be another program that got the pid after the owner died (a
// container restarted with the same pids, a reboot). Nothing tells that apart for sure (a
// start time compared with the lock's is wrong after a clock step), so start-up still
// refuses, but says which process has the pid (its command line, from /proc) and how to go on
// safely (docs/storage.md#one-process-per-directory).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { FILE_MODE, type StorageLog } from "./files.js";

const LOCK_FILE = "LOCK";

interface LockContent {
  pid: number;
  host: string;
  startedAt: string;
}

export interface LockOptions {
  heartbeatMs?: number;
  staleAfterMs?: number;
  /** How long to wait for an owner that is exiting (or whose state cannot be read) to go. Default 10 s. */
  waitMs?: number;
  log?: StorageLog;
}

export interface DirectoryLock {
  release(): void;
}

class DataDirectoryLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: LockContent | undefined,
    detail: string,
    /** What to do when the owner may not be a Parapet process at all; the default sentence otherwise. */
    advice = "Only one Parapet process may open a data directory.",
    /** The command line of the live process with the lock's pid on this host, where /proc shows it. */
    readonly ownerCommand?: string,
  ) {
    super(`data directory ${dir} is in use: ${detail}. ${advice}`);
    this.name = "DataDirectoryLockedError";
  }
}

/** Directories this process holds, to refuse a second open from the same pid. */
const heldHere = new Set<string>();

export async function acquireLock(dir: string, options: LockOptions = {}): Promise<DirectoryLock> {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const staleAfterMs = options.staleAfterMs ?? 30_000;
  const waitMs = options.waitMs ?? 10_000;
  const started = Date.now();
  let pause = 20;
  const key = path.resolve(dir);
  const lockPath = path.join(dir, LOCK_FILE);
  if (heldHere.has(key)) {
    throw new DataDirectoryLockedError(dir, undefined, `it is already open in this process (pid ${process.pid})`);
  }
  const content: LockContent = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  const text = JSON.stringify(content);

  for (let attempt = 0; attempt < 3;) {
    if (tryCreate(dir, lockPath, text)) {
      heldHere.add(key);
      const timer = setInterval(() => {
        const now = new Date();
        try {
          fs.utimesSync(lockPath, now, now);
        } catch {
          // A missing lock file is reported by the next opener, not here.
        }
      }, heartbeatMs);
      timer.unref();
      return {
        release() {
          clearInterval(timer);
          heldHere.delete(key);
          try {
            if (fs.readFileSync(lockPath, "utf8") === text) fs.unlinkSync(lockPath);
          } catch {
            // Already gone.
          }
        },
      };
    }
    const existing = readLock(lockPath);
    if (!existing) {
      attempt++; // removed between our attempt and the read
      continue;
    }
    const verdict = judge(existing, staleAfterMs);
    if (verdict.held === "going" && Date.now() - started < waitMs) {
      await sleep(pause);
      pause = Math.min(pause * 2, 500);
      continue;
    }
    if (verdict.held === true && existing.content?.host === os.hostname()) throw runningOwner(dir, lockPath, existing.content, verdict.detail);
    if (verdict.held) throw new DataDirectoryLockedError(dir, existing.content, verdict.detail);
    if (Date.now() - started > 1000) options.log?.info({ dir, waited_ms: Date.now() - started }, "took over the lock of a process that exited");
    takeOver(lockPath, existing.raw);
    attempt++;
  }
  throw new DataDirectoryLockedError(dir, undefined, `could not take ${lockPath} after three attempts (another process is starting?)`);
}

function tryCreate(dir: string, lockPath: string, text: string): boolean {
  const tmp = path.join(dir, `${LOCK_FILE}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  fs.writeFileSync(tmp, text, { flag: "wx", mode: FILE_MODE });
  try {
    fs.linkSync(tmp, lockPath);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function readLock(lockPath: string): { raw: string; content: LockContent | undefined; mtimeMs: number } | undefined {
  try {
    const raw = fs.readFileSync(lockPath, "utf8");
    const mtimeMs = fs.statSync(lockPath).mtimeMs;
    let content: LockContent | undefined;
    try {
      const parsed = JSON.parse(raw) as LockContent;
      if (typeof parsed.pid === "number" && typeof parsed.host === "string") content = parsed;
    } catch {
      content = undefined;
    }
    return { raw, content, mtimeMs };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

/** false: take it over; "going": the owner is exiting, wait; true: in use. */
function judge(existing: { content: LockContent | undefined; mtimeMs: number }, staleAfterMs: number): { held: boolean | "going"; detail: string } {
  const { content } = existing;
  // Content is written before the file appears, so unreadable content is damage, not a starting owner.
  if (!content) return { held: false, detail: "" };
  const owner = `pid ${content.pid} on host ${content.host}, started ${content.startedAt}`;
  if (content.host === os.hostname()) {
    if (content.pid === process.pid || !pidAlive(content.pid)) return { held: false, detail: "" };
    const state = processState(content.pid);
    if (state === "zombie") return { held: false, detail: "" };
    // Without /proc (not Linux) a dying owner cannot be told from a running one: wait for both.
    if (state === "exiting" || state === "unknown") return { held: "going", detail: `held by ${owner}, which did not exit in time` };
    return { held: true, detail: `held by ${owner}` };
  }
  const age = Date.now() - existing.mtimeMs;
  if (age > staleAfterMs) return { held: false, detail: "" };
  return {
    held: true,
    detail: `held by ${owner}, heartbeat ${Math.round(age / 1000)} s ago; if that process is gone, retry after ${Math.ceil((staleAfterMs - age) / 1000)} s`,
  };
}

/**
 * The lock's pid is a running process on this host: it says which program that is, since after a
 * restart the pid may belong to something else, and how to go on without two Parapet processes
 * ever sharing the directory.
 */
function runningOwner(dir: string, lockPath: string, owner: LockContent, detail: string): DataDirectoryLockedError {
  const command = commandLineOf(owner.pid);
  const what = command !== undefined ? `pid ${owner.pid} is running: ${command}` : `the command line of pid ${owner.pid} cannot be read here`;
  const advice =
    `Only one Parapet process may open a data directory. If that process is a Parapet process using ${dir}, stop it first (or give this one another PARAPET_DATA_DIR). ` +
    `If it is not (its pid was reused after a crash or a restart), make sure no Parapet process uses ${dir}, remove ${lockPath} and start again; ` +
    "never remove it while a Parapet process has the directory open";
  return new DataDirectoryLockedError(dir, owner, `${detail}; ${what}`, advice + ".", command);
}

/** Longest command line quoted in the message: enough to recognise a program, not a dump of its arguments. */
const MAX_COMMAND_CHARS = 300;

/** The command line of a process as /proc shows it (arguments joined by spaces), or undefined where it cannot be read. */
function commandLineOf(pid: number): string | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return undefined;
  }
  // Arguments are NUL-separated; control characters would garble a log line.
  const text = raw
    .split("\0")
    .filter((a) => a !== "")
    .join(" ")
    .replace(/[\u0000-\u001f\u007f]/g, "?");
  // A kernel thread has an empty command line.
  if (text === "") return undefined;
  return text.length > MAX_COMMAND_CHARS ? `${text.slice(0, MAX_COMMAND_CHARS)}…` : text;
}

/** PF_EXITING in /proc/PID/stat's flags: the process got a fatal signal and is being torn down. */
const PF_EXITING = 0x4;

/** What Linux says about a pid that exists: still running, being torn down, or a zombie waiting to be reaped. */
function processState(pid: number): "running" | "exiting" | "zombie" | "unknown" {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" && fs.existsSync("/proc/self/stat") ? "zombie" : "unknown";
  }
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags ...": comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  if (state === "Z" || state === "X" || state === "x") return "zombie";
  return Number(fields[6]) & PF_EXITING ? "exiting" : "running";
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Moves a stale lock aside, putting it back if another process replaced it meanwhile. */
function takeOver(lockPath: string, staleRaw: string): void {
  const aside = `${lockPath}.stale.${process.pid}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  const moved = fs.readFileSync(aside, "utf8");
  if (moved !== staleRaw) {
    // We moved a fresh lock that replaced the stale one after we read it: restore it.
    try {
      fs.linkSync(aside, lockPath);
    } catch {
      // Someone else holds LOCK again; they win.
    }
  }
  fs.rmSync(aside, { force: true });
}
