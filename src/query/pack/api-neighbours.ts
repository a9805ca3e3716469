import type { ApiMap } from "../../graph/api-links.js";
import type { PackEntry, PackSource } from "./pack-ranking.js";

/** For how many of the best-ranked files the other side of the contract is brought, and how many sides each. */
const LINKED_FROM = 3;
const SIDES_PER_FILE = 2;
/** Links less sure than this (a prefix taken off the route, a bare template) are not worth a place. */
const MIN_CONFIDENCE = 0.7;

/** One other side of a file's links: where to read, and why. */
interface Side {
  repo: string;
  file: string;
  line: number;
  note: string;
  confidence: number;
}

/**
 * The other side of the API contract for the best-ranked files, so that a task about one side
 * sees the other: after a file that makes requests, the route handlers they reach; after a file
 * that serves routes, the requests that reach them. Each comes right after the file that links
 * to it, focused on the linked lines (the handler, the call); a side already in the ranking keeps
 * its place and gains the focus and the note. `repoOf` names an entry's repository (`single` when packing one
 * repository, whose entries carry none); `sourceOf` reads a repository's code, or undefined when
 * it is not packed.
 */
export function withApiNeighbours(entries: readonly PackEntry[], map: ApiMap, sourceOf: (repo: string) => PackSource | undefined, single?: string): PackEntry[] {
  if (map.calls.length === 0) return [...entries];
  const repoOf = (e: PackEntry): string => e.repo ?? single ?? "";
  const key = (repo: string, path: string): string => `${repo}\0${path}`;
  const out = [...entries];
  const added = new Set<PackEntry>();
  let from = 0;
  for (let i = 0; i < out.length && from < LINKED_FROM; i++) {
    const entry = out[i]!;
    if (added.has(entry) || entry.coverOnly) continue;
    from++;
    let at = i + 1;
    for (const side of sidesOf(map, repoOf(entry), entry.file.path).slice(0, SIDES_PER_FILE)) {
      const existing = out.findIndex((e) => key(repoOf(e), e.file.path) === key(side.repo, side.file));
      if (existing >= 0) {
        const original = out[existing]!;
        const { coverOnly: named, ...known } = original;
        const merged: PackEntry = { ...known, focus: [...(known.focus ?? []), side.line], note: known.note?.includes(side.note) ? known.note : [known.note, side.note].filter(Boolean).join("; ") };
        if (named) {
          // A side ranked among the files that are only named comes right after the file that
          // links to it, as a side from outside the ranking does, packed as a file of its own.
          const moved: PackEntry = { ...merged, linked: true };
          out.splice(existing, 1);
          out.splice(at++, 0, moved);
          added.add(moved);
          continue;
        }
        out[existing] = merged;
        // A side added for an earlier file stays a side: it brings no sides of its own.
        if (added.has(original)) added.add(merged);
        continue;
      }
      const source = sourceOf(side.repo);
      if (!source) continue;
      const linked: PackEntry = { file: { path: side.file, score: 0, signals: {} }, source, ...(single === undefined ? { repo: side.repo } : {}), note: side.note, focus: [side.line], linked: true };
      out.splice(at++, 0, linked);
      added.add(linked);
    }
  }
  return out;
}

/** The other sides of a file's links, surest first, one per file. */
function sidesOf(map: ApiMap, repo: string, path: string): Side[] {
  const sides: Side[] = [];
  for (const call of map.calls) {
    for (const t of call.targets) {
      if (t.confidence < MIN_CONFIDENCE) continue;
      if (call.repo === repo && call.file === path) {
        sides.push({ repo: t.repo, file: t.handlerFile ?? t.file, line: t.handlerLine ?? t.line, note: `API: ${call.method} ${call.url} is served by ${t.handler || "this route"}`, confidence: t.confidence });
      } else if (t.repo === repo && (t.handlerFile === path || t.file === path)) {
        sides.push({ repo: call.repo, file: call.file, line: call.line, note: `API: ${call.symbol ?? "code here"} requests ${call.method} ${call.url}`, confidence: t.confidence });
      }
    }
  }
  const seen = new Set<string>();
  return sides
    .sort((a, b) => b.confidence - a.confidence)
    .filter((s) => {
      const k = `${s.repo}\0${s.file}`;
      return !(s.repo === repo && s.file === path) && !seen.has(k) && !!seen.add(k);
    });
}
