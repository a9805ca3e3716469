import { isTestPath } from "../core/languages.js";
import type { GoldFile } from "./types.js";

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Reads a unified diff (a gold patch) into the files it changes and, per file, the pre-image
 * lines an answer must show: every line the patch deletes or modifies; for a hunk that only adds
 * lines, the old line just before each insertion point (line 1 when inserting at the very top).
 */
export function parsePatch(patch: string): GoldFile[] {
  const files: GoldFile[] = [];
  let file: GoldFile | null = null;
  let lines = new Set<number>();
  let hunk: { old: number; deleted: number[]; anchors: number[]; inAddRun: boolean } | null = null;

  const endHunk = (): void => {
    if (!hunk) return;
    for (const line of hunk.deleted.length > 0 ? hunk.deleted : hunk.anchors) lines.add(line);
    hunk = null;
  };
  const endFile = (): void => {
    endHunk();
    if (file) {
      file.lines = [...lines].sort((a, b) => a - b);
      files.push(file);
    }
    file = null;
    lines = new Set();
  };

  for (const row of patch.split("\n")) {
    if (row.startsWith("diff --git ")) {
      endFile();
      const m = /^diff --git a\/(.+) b\/(.+)$/.exec(row);
      const path = m ? m[1]! : row.slice(11);
      file = { path, isNew: false, isTest: isTestPath(path), lines: [] };
      continue;
    }
    if (!file) continue;
    const current: GoldFile = file;
    if (!hunk) {
      if (row.startsWith("new file mode") || row === "--- /dev/null") current.isNew = true;
      const m = HUNK.exec(row);
      if (m) hunk = { old: Number(m[1]), deleted: [], anchors: [], inAddRun: false };
      continue;
    }
    const h: { old: number; deleted: number[]; anchors: number[]; inAddRun: boolean } = hunk;
    const m = HUNK.exec(row);
    if (m) {
      endHunk();
      hunk = { old: Number(m[1]), deleted: [], anchors: [], inAddRun: false };
    } else if (row.startsWith("+")) {
      // `old` is the next pre-image line: the insertion point is after the line before it.
      if (!h.inAddRun) h.anchors.push(Math.max(1, h.old - 1));
      h.inAddRun = true;
    } else if (row.startsWith("-")) {
      h.deleted.push(h.old++);
      h.inAddRun = false;
    } else if (row.startsWith(" ") || row === "") {
      h.old++;
      h.inAddRun = false;
    }
    // "\ No newline at end of file" changes nothing.
  }
  endFile();
  return files;
}
