import { statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { ContextSmithError } from "../core/errors.js";
import { PathIndex } from "./path-index.js";
import type { IndexStore } from "./store.js";

/**
 * A path given by a user or an agent, as repository-relative with `/` separators: absolute paths
 * must lie inside `root`; `..` never leaves it.
 * @throws ContextSmithError `INVALID_ARGUMENT`
 */
export function repoRelative(root: string, path: string): string {
  const trimmed = path.trim();
  if (trimmed === "") throw new ContextSmithError("INVALID_ARGUMENT", "The path is empty.");
  const rel = isAbsolute(trimmed) ? relative(root, trimmed) : relative(root, join(root, trimmed));
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
    throw new ContextSmithError("INVALID_ARGUMENT", `${path} is outside the repository ${root}.`);
  }
  return rel.split(sep).join("/");
}

/**
 * A file the index has: exactly `path`, or the one file a partial path names.
 * @throws ContextSmithError `INVALID_ARGUMENT` (outside the root, or several files match), `PATH_NOT_FOUND`
 */
export function indexedPath(store: IndexStore | null, root: string, path: string): string {
  const rel = repoRelative(root, path);
  if (store?.file(rel)) return rel;
  const candidates = store ? new PathIndex(store.allPaths()).resolve(rel) : [];
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length > 1) {
    throw new ContextSmithError("INVALID_ARGUMENT", `${path} matches several files: ${candidates.slice(0, 10).join(", ")}`, { candidates });
  }
  throw new ContextSmithError("PATH_NOT_FOUND", `${path} is not a file of the index of ${root}.`);
}

/**
 * Of `paths` (repository-relative), those whose file changed on disk since it was indexed (size or
 * modification time differ) or is gone, in order.
 */
export function staleFiles(store: IndexStore | null, root: string, paths: Iterable<string>): string[] {
  const stale: string[] = [];
  for (const path of new Set(paths)) {
    const record = store?.file(path);
    try {
      const stat = statSync(join(root, path));
      if (!record || stat.size !== record.size || stat.mtimeMs !== record.mtimeMs) stale.push(path);
    } catch {
      stale.push(path);
    }
  }
  return stale.sort();
}
