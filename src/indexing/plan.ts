import type { StoredStat } from "../store/types.js";
import type { WalkedFile } from "./walk.js";

/** A file to read: new, or its stat changed. */
export interface PlannedRead extends WalkedFile {
  /** The stored content hash: if the file still hashes to it, only its stat is refreshed. */
  expectHash: string | null;
}

/** What an index run must do. */
export interface Plan {
  read: PlannedRead[];
  /** Files whose size and mtime match the stored record: not even read. */
  unchanged: number;
  /** Stored paths no longer on disk (or now excluded). */
  remove: string[];
  /** Stored paths that could not be looked at (see WalkResult.unreadable): kept as they are. */
  kept: number;
}

/** What the index holds of each file, by path: {@link planRun} takes it (and empties it). */
export function storedByPath(stored: Iterable<StoredStat>): Map<string, StoredStat> {
  const known = new Map<string, StoredStat>();
  for (const s of stored) known.set(s.path, s);
  return known;
}

/**
 * Compares the walk with the stored records. Only size and mtime are compared here; a changed
 * stat does not mean changed content (a fresh CI checkout restores every mtime), so those files
 * are read and hashed, and re-parsed only when the hash differs. A file whose language changed
 * (a header that a first C++ source turns into C++, a language that gained a grammar) is parsed
 * again whatever its content.
 */
export function planRun(walked: readonly WalkedFile[], stored: Iterable<StoredStat> | Map<string, StoredStat>, unreadable: readonly string[] = []): Plan {
  // One pass over each side: this runs on every invocation, over every file.
  const known = stored instanceof Map ? stored : storedByPath(stored);
  const read: PlannedRead[] = [];
  let unchanged = 0;
  // Each planned read written out as one literal: `{ ...file, expectHash }` gave every one of them
  // a hidden class of its own (a map and its descriptors: 23 MB at 104,000 files).
  const plan = (file: WalkedFile, expectHash: string | null): PlannedRead => ({ path: file.path, size: file.size, mtimeMs: file.mtimeMs, language: file.language, expectHash });
  for (const file of walked) {
    const old = known.get(file.path);
    known.delete(file.path);
    if (old && old.language !== file.language) read.push(plan(file, null));
    else if (old && old.size === file.size && old.mtimeMs === file.mtimeMs) unchanged++;
    else read.push(plan(file, old?.hash ?? null));
  }
  const cannotSee = (path: string): boolean => unreadable.some((u) => u === "" || (u.endsWith("/") ? path.startsWith(u) : path === u));
  const remove: string[] = [];
  let kept = 0;
  for (const path of known.keys()) {
    if (unreadable.length > 0 && cannotSee(path)) kept++;
    else remove.push(path);
  }
  return { read, unchanged, remove, kept };
}
