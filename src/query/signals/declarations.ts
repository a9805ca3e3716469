import type { PathIndex } from "../../store/path-index.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

const SOURCE_EXT = [".c", ".cc", ".cpp", ".cxx", ".m", ".mm"];
const HEADER_EXT = [".h", ".hh", ".hpp", ".hxx"];
/** Inline-definition headers of a header `x.h`: `x-inl.h`, `x_inl.h`, `x.inl`, `x-inl.hpp`. */
const INLINE_SUFFIX = /(?:[-_]inl)$/;

/** Folder hops (up and down the tree) within which a counterpart counts as beside its file. */
const NEAR_HOPS = 2;

/**
 * Declarations-beside-sources signal (a neighbour signal): the files a fix to the first fusion's
 * best file usually changes with it, by the language's convention — a C/C++ source's
 * header and a header's source, a header's inline definitions (`x-inl.h`, `inline/x.h`) and the
 * header they define, a JavaScript module's `.d.ts`, a Python module's `.pyi` stub. A
 * counterpart counts when it is within two folder hops of the file, or is the only file of its
 * name in the repository and in a folder of the same name (a parallel `include/` tree).
 */
export function declarationsSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  // The best file's alone: the counterparts of the files after it, measured, pushed files that
  // the fix changes out of the top five more often than they brought one in.
  const seed = ctx.seeds[0];
  if (seed) for (const { path, hops } of counterparts(seed, ctx.paths)) hits.add(path, 1 / (1 + hops), `declared beside ${seed}`);
  return hits.result("declarations", ctx.config.signalDepth);
}

/** A file's counterparts in the repository, with their distance in folder hops. */
export function counterparts(path: string, paths: PathIndex): Array<{ path: string; hops: number }> {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return [];
  const stem = base.slice(0, dot);
  const ext = base.slice(dot).toLowerCase();
  const names = counterpartNames(base, stem, ext);
  const found: Array<{ path: string; hops: number }> = [];
  for (const name of names) {
    const same = paths.named(name).filter((p) => p !== path);
    const near = same.map((p) => ({ path: p, hops: folderHops(dir, p.slice(0, p.lastIndexOf("/") + 1)) })).filter((c) => c.hops <= NEAR_HOPS);
    if (near.length > 0) found.push(...near);
    // The only file of its name in a parallel tree (`src/catch2/x.cpp`, `include/catch2/x.hpp`):
    // its folder has the same name. Never the same file name again, which far away is another file.
    else if (same.length === 1 && name !== base && folderName(same[0]!) === folderName(path)) found.push({ path: same[0]!, hops: NEAR_HOPS + 1 });
  }
  return found;
}

function counterpartNames(base: string, stem: string, ext: string): string[] {
  if (SOURCE_EXT.includes(ext)) return HEADER_EXT.map((h) => stem + h);
  if (HEADER_EXT.includes(ext)) {
    if (INLINE_SUFFIX.test(stem)) return [stem.replace(INLINE_SUFFIX, "") + ext];
    // The same name is the header itself, elsewhere: `inline/x.h` beside `x.h`.
    return [...SOURCE_EXT.map((s) => stem + s), `${stem}-inl${ext}`, `${stem}_inl${ext}`, `${stem}.inl`, stem + ext];
  }
  if (ext === ".inl") return HEADER_EXT.map((h) => stem + h);
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") return [`${stem}.d.ts`, `${stem}.d.mts`, `${stem}.d.cts`];
  if (/\.d\.[mc]?ts$/.test(base)) return [".js", ".mjs", ".cjs"].map((e) => base.replace(/\.d\.[mc]?ts$/, e));
  if (ext === ".py") return [`${stem}.pyi`];
  if (ext === ".pyi") return [`${stem}.py`];
  return [];
}

function folderName(path: string): string {
  const parts = path.split("/");
  return parts.length > 1 ? parts[parts.length - 2]! : "";
}

/** Folder hops between two folders (`a/b/` to `a/c/` is 2: one up, one down). */
function folderHops(from: string, to: string): number {
  const a = from.split("/").filter(Boolean);
  const b = to.split("/").filter(Boolean);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return a.length - common + (b.length - common);
}
