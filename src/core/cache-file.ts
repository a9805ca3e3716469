/**
 * Files that only make ContextSmith faster (V8's code cache, token tables): any of them may be
 * missing, refused or deleted at any time, and a folder that cannot be written costs only the speed.
 */

import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { threadId } from "node:worker_threads";

/** A temporary file older than this was left by a process that died writing it. */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * A cache file's bytes, or undefined when it is not there, cannot be read, or is not the user's
 * own: a file of another user, one that others may write, or one with a second name (a hard link
 * made elsewhere) is never used — V8's code cache is code, and a folder named by
 * `CTXSMITH_CACHE_DIR` may be shared. Links are not followed, and a FIFO is not waited on.
 */
export function readCacheFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || stat.nlink !== 1 || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0))) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A short key of an absolute path (FNV-1a, hex): caches of the same thing installed in two places
 * (a global install and a project's) are named apart, so that neither removes the other's.
 */
export function pathKey(path: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

/**
 * Writes a cache file whole under another name and renames it into place, so that two processes (or
 * threads) at once never read half of one; then removes the other files of its folder that
 * `isStale` names (the caches of earlier versions), and temporary files abandoned there. False when
 * the folder cannot be written, or when running under `sudo` (root's files in the user's cache
 * folder would lock the user out of it).
 */
export function writeCacheFile(path: string, data: Uint8Array, isStale?: (name: string) => boolean): boolean {
  if (process.env.SUDO_UID !== undefined && process.getuid?.() === 0) return false;
  const folder = dirname(path);
  const temporary = `${path}.${process.pid}-${threadId}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    mkdirSync(folder, { recursive: true });
    // A new file only: never written through a link or a file that is there.
    writeFileSync(temporary, data, { flag: "wx", mode: 0o644 });
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
    return false;
  }
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    // An old cache left behind is only disk.
  }
  for (const name of names) {
    if (name === basename(path)) continue;
    try {
      const abandoned = name.endsWith(".tmp") && Date.now() - lstatSync(join(folder, name)).mtimeMs > ABANDONED_MS;
      if (abandoned || (!name.endsWith(".tmp") && isStale?.(name))) rmSync(join(folder, name), { force: true });
    } catch {
      // Gone meanwhile (another process's sweep), or not ours to remove.
    }
  }
  return true;
}
