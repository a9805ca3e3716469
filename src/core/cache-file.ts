import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Files that only make ContextSmith faster (V8's code cache, token tables): any of them may be
 * missing, refused or deleted at any time, and a folder that cannot be written costs only the speed.
 */

/** A cache file's bytes, or undefined when it is not there or cannot be read. */
export function readCacheFile(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
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
 * once never read half of one; then removes the other files of its folder whose names start with
 * `replaces` (the caches of earlier versions). False when the folder cannot be written.
 */
export function writeCacheFile(path: string, data: Uint8Array, replaces?: string): boolean {
  const folder = dirname(path);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written.
    }
    return false;
  }
  if (replaces !== undefined) {
    try {
      for (const name of readdirSync(folder)) {
        if (name.startsWith(replaces) && name !== basename(path) && !name.endsWith(".tmp")) rmSync(join(folder, name), { force: true });
      }
    } catch {
      // An old cache left behind is only disk.
    }
  }
  return true;
}
