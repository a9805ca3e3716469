import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ContextSmithError } from "../core/errors.js";

const LOCK_FILE = "write.lock";
/** How often a holder touches its lock file (its heartbeat)... */
const HEARTBEAT_MS = 10_000;
/**
 * ...and how old a heartbeat may be before the lock is stale whoever it names: another host's
 * process, or a live pid that is not the writer (a lock restored from a CI cache names the pid of
 * a job long gone, which may be PID 1 of this container). Long enough for a holder's event loop
 * to be busy for a while.
 */
const STALE_MS = 120_000;

export interface LockOwner {
  pid: number;
  host: string;
  startedAt: number;
}

export interface LockOptions {
  /** The lock file's name in the folder (default `write.lock`, the index's write lock). */
  file?: string;
  /** What holds such a lock, for messages (default "index run"). */
  holder?: string;
  /** What to do when the lock is held and we do not wait (default: wait for it). */
  busyAdvice?: string;
  /** Wait for another writer to finish (default) or fail at once with `LOCKED`. */
  wait: boolean;
  /** Give up waiting after this long with `LOCKED` (default: wait as long as the holder lives). */
  waitTimeoutMs?: number;
  /** Called once when the lock is held by someone else and we start waiting. */
  onWait?: (owner: LockOwner) => void;
  /** Called when a stale lock is taken over, with why it was stale. */
  onTakeover?: (owner: LockOwner | null, why: string) => void;
  signal?: AbortSignal;
  pollMs?: number;
  /** For tests: the heartbeat period and the age past which a lock is stale. */
  heartbeatMs?: number;
  staleMs?: number;
}

/** Whether an index folder has a write lock (held, or left by a killed writer). */
export function writeLockExists(indexDir: string): boolean {
  return existsSync(join(indexDir, LOCK_FILE));
}

/** A held write lock; release it when done (a crashed holder's lock is detected as stale). */
export interface WriteLock {
  release(): void;
}

/**
 * Keeps two index writers apart: an exclusively created lock file naming its owner, touched every
 * 10 s while it is held. A lock is stale, and taken over with a warning, when its owner process is
 * gone (same host) or its heartbeat stopped two minutes ago (any host, any pid). Readers never lock:
 * LMDB gives them a consistent snapshot while a writer works.
 */
export async function acquireWriteLock(indexDir: string, options: LockOptions): Promise<WriteLock> {
  const path = join(indexDir, options.file ?? LOCK_FILE);
  const holder = options.holder ?? "index run";
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: Date.now() };
  const mine = JSON.stringify(me);
  const staleMs = options.staleMs ?? STALE_MS;
  const waitingSince = Date.now();
  let announced = false;
  for (;;) {
    if (options.signal?.aborted) throw new ContextSmithError("ABORTED", `It was cancelled while waiting for another ${holder}.`);
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      return held(path, mine, options.heartbeatMs ?? HEARTBEAT_MS);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const content = readOrNull(path);
    if (content === null) continue; // released between our attempts
    const owner = parseOwner(content);
    const why = staleness(path, owner, staleMs);
    if (why !== null) {
      if (takeOver(path, content)) options.onTakeover?.(owner, why);
      else await sleep(options.pollMs ?? 200);
      continue;
    }
    if (!options.wait) {
      const busy = options.busyAdvice
        ? `Another ${holder} (${describeOwner(owner)}) holds ${path}. ${options.busyAdvice}`
        : `Another index run (${describeOwner(owner)}) is writing this index. Wait for it, or run without --no-wait.`;
      throw new ContextSmithError("LOCKED", busy, {
        pid: owner?.pid,
      });
    }
    if (options.waitTimeoutMs !== undefined && Date.now() - waitingSince >= options.waitTimeoutMs) {
      throw new ContextSmithError(
        "LOCKED",
        `Gave up after waiting ${Math.round((Date.now() - waitingSince) / 1000)} s for another ${holder} (${describeOwner(owner)}). If no such run exists, delete ${path}.`,
        { pid: owner?.pid },
      );
    }
    if (!announced && owner) {
      options.onWait?.(owner);
      announced = true;
    }
    await sleep(options.pollMs ?? 200);
  }
}

/** The held lock: its heartbeat runs until it is released (and never keeps the process alive). */
function held(path: string, mine: string, heartbeatMs: number): WriteLock {
  const heartbeat = setInterval(() => {
    try {
      if (readOrNull(path) === mine) {
        const now = new Date();
        utimesSync(path, now, now);
      }
    } catch {
      // Gone or unwritable: the next writer decides whether it is stale.
    }
  }, heartbeatMs);
  heartbeat.unref();
  return {
    release() {
      clearInterval(heartbeat);
      // Only remove the lock if it is still ours.
      try {
        if (readOrNull(path) === mine) unlinkSync(path);
      } catch {
        // Unreadable or gone: nothing of ours to remove.
      }
    },
  };
}

/** `pid 123 on host ci-7, started 5 min ago`. */
export function describeOwner(owner: LockOwner | null): string {
  if (!owner) return "an unknown process";
  const minutes = Math.round((Date.now() - owner.startedAt) / 60_000);
  return `pid ${owner.pid}${owner.host === hostname() ? "" : ` on host ${owner.host}`}${Number.isFinite(minutes) ? `, started ${minutes} min ago` : ""}`;
}

/** The lock file's content; null when there is none. @throws ContextSmithError `IO_ERROR` when it cannot be read (a folder, no permission) */
function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new ContextSmithError("IO_ERROR", `Cannot read the lock ${path}: ${(error as Error).message}. Remove it if no index run is writing.`);
  }
}

/**
 * Removes a stale lock, if it is still the one judged stale. Two processes that both judged it
 * stale take turns through an exclusively created folder: without it, one could remove the lock
 * that the other has just created. A guard left by a killed process is removed after a while.
 */
function takeOver(path: string, stale: string): boolean {
  const guard = `${path}.takeover`;
  try {
    mkdirSync(guard);
  } catch {
    try {
      if (Date.now() - statSync(guard).mtimeMs > 10_000) rmSync(guard, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    if (readOrNull(path) !== stale) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

function parseOwner(content: string): LockOwner | null {
  try {
    const value = JSON.parse(content) as Partial<LockOwner>;
    return typeof value.pid === "number" && typeof value.host === "string" ? (value as LockOwner) : null;
  } catch {
    return null;
  }
}

/** Why the lock is stale, or null while its owner may still be writing. */
function staleness(path: string, owner: LockOwner | null, staleMs: number): string | null {
  let age: number;
  try {
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return "it is gone";
  }
  // Unparsable: a writer crashed between creating and filling the file, or it is being written
  // right now. Give a live writer a moment before calling it stale.
  if (!owner) return age > 5000 ? "it names no owner" : null;
  if (owner.host === hostname() && owner.pid !== process.pid && !processAlive(owner.pid)) return `pid ${owner.pid} is gone`;
  if (age > staleMs) return `its heartbeat stopped ${Math.round(age / 1000)} s ago`;
  return null;
}

/** Whether a process of this host is alive (one we may not signal counts as alive). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}
