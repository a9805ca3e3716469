import { closeSync, fstatSync, openSync, readFileSync, statSync, utimesSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { cachedDataVersionTag } from "node:v8";
import { Script } from "node:vm";
import { pathKey, readCacheFile, writeCacheFile } from "../core/cache-file.js";

/** How a run used the code cache: its bytecode came from the cache, was compiled afresh (none yet, or V8 refused it), or no cache is kept. */
export type CodeCacheUse = "hit" | "miss" | "rejected" | "off";

/**
 * A cache that V8 took is looked at again when it is older than this, and written again when the
 * run compiled more on top of it. A cache holds the bytecode the run that wrote it still had at its
 * end, and V8 drops the bytecode of functions not run for a while: the cache a cold index of sympy
 * wrote (852 KB) lacked the start-up code, and every no-change run after it compiled that again
 * (1.22× slower, 10 pairs); rewritten by one such run, it is 1.39 MB and the runs are as fast as
 * before (0.99×). So a cache grows to what the command's runs compile, never shrinks, and costs
 * one `createCachedData` (10–20 ms) every ten minutes at most.
 */
const REFRESH_MS = 10 * 60 * 1000;

/**
 * Runs a CommonJS bundle as Node runs a CommonJS module, with V8's code cache: compiling the CLI
 * (3 MB of JavaScript) and the functions a command runs costs a one-shot `ctxsmith context` about
 * a tenth of its time, and Node 20 keeps no cache of its own. The bytecode V8 compiled during a
 * run is written when the run ends (when there was no cache, or V8 refused it), and later runs
 * start from it. Each `variant` (the CLI's command) has a cache of its own: a cache holds what the
 * run that wrote it compiled, and `index` runs other functions than `context`.
 *
 * The cache file is named by the bundle's path, its file's identity ({@link buildKey}) and V8's
 * version tag, so a new build or another Node never meets an old cache (and a new build's caches
 * replace its old ones);
 * V8 also refuses a cache that does not fit itself (the run then compiles afresh and writes a new
 * one). A cache folder that cannot be written, or a cache that cannot be read, costs nothing but
 * the speed (`core/cache-file.ts`).
 *
 * @param cacheDir where cache files go (`<cacheDir>/v8/`), or null to keep none
 * @param variant what the run does, when runs differ in what they compile (letters, digits, `-`)
 */
export function runBundle(file: string, cacheDir: string | null, variant = "default"): CodeCacheUse {
  const { source, key } = readBundle(file);
  // Named by where the bundle is and what it is (a new build replaces its own caches, not another
  // install's), by V8 (its version, flags and the CPU's features: two Node versions or two sets of
  // flags keep a cache each), and by the variant.
  const prefix = `${basename(file)}-${pathKey(file)}-`;
  const build = `${prefix}${key}-`;
  const tag = cachedDataVersionTag();
  const cachePath = cacheDir === null ? null : join(cacheDir, "v8", `${build}${tag.toString(16)}-${variant.replace(/[^a-z0-9-]/gi, "_")}.bin`);
  const cachedData = cachePath === null ? undefined : readCacheFile(cachePath);
  // The wrapper Node puts around a CommonJS module; the line break ends a last line that is a comment.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const use: CodeCacheUse = cachePath === null ? "off" : cachedData === undefined ? "miss" : script.cachedDataRejected ? "rejected" : "hit";
  const stale = use === "hit" && Date.now() - modifiedAt(cachePath!) > REFRESH_MS;
  // Written once the command is done, when it has compiled what it runs, and only when it
  // succeeded: a mistyped command or a failed run compiles little, and its cache would stay until
  // the next build. Not on an explicit process.exit (`--help`, a crash) either. A run that left
  // V8's flags changed writes none (the next run would refuse it; runtime/gc.ts turns its flag off
  // again). A cache taken is written again only when it is old and the run has more (REFRESH_MS).
  if (cachePath !== null && (use !== "hit" || stale)) {
    process.once("beforeExit", (code) => {
      if ((process.exitCode ?? code) !== 0 || cachedDataVersionTag() !== tag) return;
      const data = script.createCachedData();
      if (use !== "hit" || data.length > cachedData!.length) writeCacheFile(cachePath, data, (name) => name.startsWith(prefix) && !name.startsWith(build));
      else touch(cachePath);
    });
  }
  const module = { exports: {} as unknown, filename: file, id: ".", loaded: false };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return use;
}

/** Marks a cache as looked at now (not looked at again for REFRESH_MS); a failure costs nothing. */
function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a cache folder that cannot be written: it is looked at again next time
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/**
 * The bundle's text, and what tells this build of it from another: its file (device and inode),
 * size, and times of change to the nanosecond. Writing a file sets its change time (ctime), which
 * no tool can set back, so a rebuilt or rewritten bundle, or a new install (npm gives every file the
 * same modification time), is never taken for the one a cache was compiled from; a hard link made
 * to it costs one compile. Hashing its bytes instead cost every start 6 ms. Read from one open file,
 * the times before the text: a write while it is read leaves a key no later run has.
 */
function readBundle(file: string): { source: string; key: string } {
  const fd = openSync(file, "r");
  try {
    const { dev, ino, size, mtimeNs, ctimeNs } = fstatSync(fd, { bigint: true });
    return { source: readFileSync(fd, "utf8"), key: [dev, ino, size, mtimeNs, ctimeNs].map((n) => n.toString(36)).join(".") };
  } finally {
    closeSync(fd);
  }
}
