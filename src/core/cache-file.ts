import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Files that only make ContextSmith faster (V8's code cache, token tables): any of them may be
 * missing, refused or deleted at any time, and a folder that cannot be written costs only the speed.
 */

/**
 * A cache file's bytes, or undefined when it is not there, cannot be read, or is not the user's
 * own: a file of another user, or one that others may write, is never used (V8's code cache is
 * code, and a folder named by `CTXSMITH_CACHE_DIR` may be shared). Links are not followed.
 */
export function readCacheFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0))) return undefined;
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
 * Writes a cache file whole under another name and renames it into place, so that two processes at
 * once never read half of one; then removes the other files of its folder that `isStale` names (the
 * caches of earlier versions). False when the folder cannot be written.
 */
export function writeCacheFile(path: string, data: Uint8Array, isStale?: (name: string) => boolean): boolean {
  const folder = dirname(path);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(folder, { recursive: true });
    // A new file only (a link or a file left there is removed first, never written through).
    rmSync(temporary, { force: true });
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
  if (isStale !== undefined) {
    try {
      for (const name of readdirSync(folder)) {
        if (name !== basename(path) && !name.endsWith(".tmp") && isStale(name)) rmSync(join(folder, name), { force: true });
      }
    } catch {
      // An old cache left behind is only disk.
    }
  }
  return true;
}
