import { spawnSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { open } from "lmdb";
import { workerFile } from "../runtime/worker-file.js";

/**
 * Integrity of an index's data file against damage from outside (a page overwritten in place,
 * a restored partial copy) that LMDB cannot see: it trusts its pages, and a damaged branch page
 * can crash the process natively (a segmentation fault, a corrupted heap).
 *
 * A writer that finishes seals the file (its size, mtime and inode in `index.sealed`). A file that
 * no longer matches its seal — a run was killed, or something else wrote it — has every page of
 * every table walked in a child process before it is trusted again: a crash there is a verdict,
 * not the end of the run.
 */

/** The seal beside the data file. */
export const SEAL_FILE = "index.sealed";

function fingerprint(dataFile: string): string | null {
  try {
    const stat = statSync(dataFile);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return null;
  }
}

/** Whether the data file is as the last writer to finish left it. */
export function isSealed(dataFile: string, print = fingerprint(dataFile)): boolean {
  try {
    return readFileSync(join(dirname(dataFile), SEAL_FILE), "utf8") === print;
  } catch {
    return false;
  }
}

/**
 * Seals the data file as it is now (the caller holds the write lock and has closed its store). A
 * seal that already says so is left as it is: a run that wrote nothing (no change) writes no file.
 */
export function seal(dataFile: string): void {
  const print = fingerprint(dataFile);
  try {
    if (print && !isSealed(dataFile, print)) writeFileSync(join(dirname(dataFile), SEAL_FILE), print);
  } catch {
    // A read-only folder: the next writer checks the file again.
  }
}

/**
 * Walks every page of the data file in a child process. Null when it is sound, else why it is
 * not (the child's error, or the signal that killed it).
 */
export function verifyInChild(dataFile: string): string | null {
  // A damaged page can also send LMDB round a cycle of pages for ever: the walk is bounded, at
  // 20 s plus 200 ms per MB (sympy's 74 MB take 0.34 s).
  let size = 0;
  try {
    size = statSync(dataFile).size;
  } catch {
    // gone: the walk says so
  }
  const timeout = 20_000 + Math.round((size / 1048576) * 200);
  const child = spawnSync(process.execPath, [workerFile("verify"), dataFile], { encoding: "utf8", timeout, killSignal: "SIGKILL" });
  if (child.status === 0) return null;
  if (child.error && (child.error as NodeJS.ErrnoException).code === "ETIMEDOUT") return `the index file is damaged: a walk of its pages did not end within ${Math.round(timeout / 1000)} s`;
  if (child.signal) return `the index file is damaged: a walk of its pages crashed (${child.signal})`;
  const said = (child.stderr || child.error?.message || "").trim().split("\n")[0] ?? "";
  return `the index file is damaged: a walk of its pages failed${said ? ` (${said})` : ""}`;
}

/** Reads every entry of every table as raw bytes; the bytes read (run by workers/verify.ts, in a child process). */
export function walkEveryPage(dataFile: string): number {
  const env = open({ path: dataFile, noSubdir: true, maxDbs: 32, compression: false });
  try {
    let bytes = 0;
    for (const name of [...env.getKeys()].map(String)) {
      const db = env.openDB(name, { encoding: "binary", keyEncoding: "binary" });
      for (const { key, value } of db.getRange()) bytes += (key as Uint8Array).length + (value as Uint8Array).length;
    }
    // A write takes pages from the free list, which no read touches: one put and one removal,
    // each committed (the parent holds the write lock, and seals the file afterwards).
    const probe = env.openDB("meta", { encoding: "binary", keyEncoding: "binary" });
    probe.putSync(Buffer.from("integrity-probe"), Buffer.alloc(4096));
    probe.removeSync(Buffer.from("integrity-probe"));
    return bytes;
  } finally {
    void env.close();
  }
}
