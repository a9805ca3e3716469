import { isTestPath } from "../core/languages.js";
import type { GoldFile } from "./types.js";

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** One hunk: where it says it starts, its pre-image lines, and which of them (by index) an answer must show. */
interface Hunk {
  start: number;
  /** The pre-image: context and deleted lines, in order. */
  pre: string[];
  deleted: number[];
  /** For runs of added lines: the index of the pre-image line before each (-1: before the hunk's first). */
  anchors: number[];
  inAddRun: boolean;
  /** Pre-image lines the header announces that are still to come. */
  left: number;
}

/**
 * Reads a unified diff (a gold patch) into the files it changes and, per file, the pre-image
 * lines an answer must show: every line the patch deletes or modifies; for a hunk that only adds
 * lines, the old line just before each insertion point (line 1 when inserting at the very top).
 *
 * With `preImage` (a file's lines at the base commit, or null), each hunk is placed where its
 * pre-image is, as `git apply` places it: at the line its header names when the text is there,
 * else at the nearest offset where it is. Dataset patches are often made against a slightly
 * different version (a SWE-bench Lite hunk can sit 41 lines from where its header says).
 */
export function parsePatch(patch: string, preImage?: (path: string) => readonly string[] | null): GoldFile[] {
  const files: Array<{ file: GoldFile; hunks: Hunk[] }> = [];
  let hunks: Hunk[] | null = null;
  let hunk: Hunk | null = null;

  for (const row of patch.split("\n")) {
    if (row.startsWith("diff --git ")) {
      const m = /^diff --git a\/(.+) b\/(.+)$/.exec(row);
      const path = m ? m[1]! : row.slice(11);
      hunks = [];
      hunk = null;
      files.push({ file: { path, isNew: false, isTest: isTestPath(path), lines: [] }, hunks });
      continue;
    }
    if (!hunks) continue;
    const m = HUNK.exec(row);
    if (m) {
      hunk = { start: Number(m[1]), pre: [], deleted: [], anchors: [], inAddRun: false, left: m[2] === undefined ? 1 : Number(m[2]) };
      hunks.push(hunk);
      continue;
    }
    if (!hunk) {
      if (row.startsWith("new file mode") || row === "--- /dev/null") files[files.length - 1]!.file.isNew = true;
      continue;
    }
    if (row.startsWith("+")) {
      // The insertion point is after the last pre-image line read.
      if (!hunk.inAddRun) hunk.anchors.push(hunk.pre.length - 1);
      hunk.inAddRun = true;
    } else if ((row.startsWith("-") || row.startsWith(" ") || row === "") && hunk.left > 0) {
      // An empty row is a blank context line whose space was stripped; past the header's count, nothing.
      if (row.startsWith("-")) hunk.deleted.push(hunk.pre.length);
      hunk.pre.push(row.slice(1).replace(/\r$/, ""));
      hunk.left--;
      hunk.inAddRun = false;
    }
    // "\ No newline at end of file" changes nothing.
  }

  return files.map(({ file, hunks }) => {
    const fileLines = hunks.length > 0 && !file.isNew ? preImage?.(file.path) ?? null : null;
    const lines = new Set<number>();
    for (const h of hunks) {
      const start = fileLines ? locate(h, fileLines) : h.start;
      for (const index of h.deleted.length > 0 ? h.deleted : h.anchors) lines.add(Math.max(1, start + index));
    }
    return { ...file, lines: [...lines].sort((a, b) => a - b) };
  });
}

/** Where a hunk's pre-image is in the file: its header's line, else the nearest line where it matches, else the header's. */
function locate(hunk: Hunk, lines: readonly string[]): number {
  if (hunk.pre.length === 0) return hunk.start;
  const matchesAt = (start: number): boolean => start >= 1 && start - 1 + hunk.pre.length <= lines.length && hunk.pre.every((line, i) => lines[start - 1 + i] === line);
  for (let offset = 0; offset < lines.length; offset++) {
    if (matchesAt(hunk.start - offset)) return hunk.start - offset;
    if (offset > 0 && matchesAt(hunk.start + offset)) return hunk.start + offset;
  }
  return hunk.start;
}
