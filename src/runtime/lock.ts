import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ContextSmithError } from "../core/errors.js";

const LOCK_FILE = "write.lock";

interface LockOwner {
  pid: number;
  host: string;
  startedAt: number;
}

export interface LockOptions {
  /** Wait for another writer to finish (default) or fail at once with `LOCKED`. */
  wait: boolean;
  /** Called once when the lock is held by someone else and we start waiting. */
  onWait?: (owner: LockOwner) => void;
  signal?: AbortSignal;
  pollMs?: number;
}

/** A held write lock; release it when done (a crashed holder's lock is detected as stale). */
export interface WriteLock {
  release(): void;
}

/**
 * Keeps two index writers apart: an exclusively created lock file naming its owner. A lock
 * whose owner process is gone (kill -9, power loss) is stale and taken over. Readers never lock:
 * LMDB gives them a consistent snapshot while a writer works.
 */
export async function acquireWriteLock(indexDir: string, options: LockOptions): Promise<WriteLock> {
  const path = join(indexDir, LOCK_FILE);
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: Date.now() };
  const mine = JSON.stringify(me);
  let announced = false;
  for (;;) {
    if (options.signal?.aborted) throw new ContextSmithError("ABORTED", "Indexing was cancelled while waiting for the lock.");
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      return {
        release() {
          // Only remove the lock if it is still ours.
          if (readOrNull(path) === mine) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const content = readOrNull(path);
    if (content === null) continue; // released between our attempts
    const owner = parseOwner(content);
    if (isStale(path, owner)) {
      // Remove it only if it is still the same stale lock we looked at.
      if (readOrNull(path) === content) {
        try {
          unlinkSync(path);
        } catch {
          // another process removed it first
        }
      }
      continue;
    }
    if (!options.wait) {
      throw new ContextSmithError("LOCKED", `Another index run (pid ${owner?.pid ?? "?"}) is writing this index. Wait for it, or run without --no-wait.`, {
        pid: owner?.pid,
      });
    }
    if (!announced && owner) {
      options.onWait?.(owner);
      announced = true;
    }
    await sleep(options.pollMs ?? 200);
  }
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
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

function isStale(path: string, owner: LockOwner | null): boolean {
  if (!owner) {
    // Unparsable: a writer crashed between creating and filling the file, or it is being written
    // right now. Give a live writer a moment before calling it stale.
    try {
      return Date.now() - statSync(path).mtimeMs > 5000;
    } catch {
      return true;
    }
  }
  if (owner.host !== hostname()) return false; // cannot check another machine's processes
  if (owner.pid === process.pid) return false; // another writer in this very process
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
