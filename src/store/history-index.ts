import { termStats } from "../core/tokenize.js";
import type { FileHistory } from "../core/types.js";
import { Bm25Builder, Bm25Snapshot, type Bm25Stats } from "./lexical.js";
import type { IndexStore } from "./store.js";
import type { HistoryIndexData } from "./tables/history.js";

/**
 * The history index: BM25 over each file's commit messages ("files changed for similar work
 * before"). One document per file with history; document ids are positions in a path list stored
 * beside the postings, so the git stage can build it before the files themselves are indexed.
 *
 * It is derived from the history tables and rewritten in the same transaction as they are, so it
 * never disagrees with them.
 */


/** A loaded history index. */
export interface HistoryIndex {
  readonly bm25: Bm25Stats;
  /** The file of a document id. */
  pathOf(id: number): string | undefined;
  /** The release notes the newest commits add to, most often first (none without history). */
  readonly releaseNotes: readonly ReleaseNotesHabit[];
}

/** Release notes, and the share of the repository's newest commits that change them. */
export interface ReleaseNotesHabit {
  path: string;
  share: number;
  /** Commits in the window the share is of (at most {@link RECENT_COMMITS}). */
  window: number;
}

/** Newest commits that touch files, whose release-notes edits make {@link ReleaseNotesHabit.share}. */
export const RECENT_COMMITS = 300;

/** The recent window (per commit, newest first, the release notes it changed), as stored. */
export function encodeRecent(recent: ReadonlyArray<readonly string[]>): Buffer {
  return Buffer.from(JSON.stringify(recent.slice(0, RECENT_COMMITS)), "utf8");
}

/**
 * The stored window, or null where there is none to trust: an index written before the window was
 * kept, or a damaged value. Either way the git stage reads the history again (see `historyCurrent`).
 */
export function decodeRecent(data: Buffer | undefined): string[][] | null {
  const parsed = jsonArray(data);
  if (!parsed) return null;
  // Each entry is a commit: a malformed one still counts, as a commit that changed no release notes.
  return parsed.slice(0, RECENT_COMMITS).map((c) => (Array.isArray(c) ? c.filter((p): p is string => typeof p === "string") : []));
}

/** A stored JSON array; null when there is none, or it is damaged or no array. */
function jsonArray(data: Buffer | undefined): unknown[] | null {
  if (!data || data.length === 0) return null;
  try {
    const parsed: unknown = JSON.parse(data.toString("utf8"));
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Paths the history renamed (`from`), each with the file it is now, as stored. */
export function encodeRenames(renames: ReadonlyMap<string, string>): Buffer {
  return Buffer.from(JSON.stringify([...renames]), "utf8");
}

/**
 * The stored renames, or null where there are none to trust: an index written before renames were
 * kept (the git stage reads the history again at once, see `historyCurrent`), or a damaged value
 * (read again with the next commit; until then paths resolve without renames).
 */
export function decodeRenames(data: Buffer | undefined): Map<string, string> | null {
  const parsed = jsonArray(data);
  if (!parsed) return null;
  const renames = new Map<string, string>();
  for (const entry of parsed) {
    if (Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string") renames.set(entry[0], entry[1]);
  }
  return renames;
}

/**
 * Fewest commits in the window before a habit is read from it: in a young repository the first
 * commit, which adds every file, would otherwise make any release notes look habitual.
 */
const MIN_WINDOW = 20;

/** Each release-notes file of the window with the share of its commits that changed it. */
function habits(recent: readonly string[][]): ReleaseNotesHabit[] {
  if (recent.length < MIN_WINDOW) return [];
  const counts = new Map<string, number>();
  for (const paths of recent) for (const path of new Set(paths)) counts.set(path, (counts.get(path) ?? 0) + 1);
  return [...counts]
    .map(([path, n]) => ({ path, share: n / recent.length, window: recent.length }))
    .sort((a, b) => b.share - a.share || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Builds the index from every file's history. `message` looks up a commit message by the
 * abbreviated hash kept in {@link FileHistory.commits}. Each message is tokenized once.
 */
export function buildHistoryIndex(files: Iterable<[string, FileHistory]>, message: (hash: string) => string | undefined): Omit<HistoryIndexData, "recent" | "renames"> {
  const builder = new Bm25Builder();
  const paths: string[] = [];
  // Each message's term counts, kept as (term number, count) pairs: a commit is listed by several
  // files, and an object per message held 26 MB of sympy's 50,000 commits.
  const terms: string[] = [];
  const numbers = new Map<string, number>();
  const cache = new Map<string, Uint32Array | null>();
  const countsOf = (hash: string): Uint32Array | null => {
    let pairs = cache.get(hash);
    if (pairs !== undefined) return pairs;
    const text = message(hash);
    pairs = null;
    if (text) {
      const tf = termStats(text).tf;
      pairs = new Uint32Array(Object.keys(tf).length * 2);
      let at = 0;
      for (const term in tf) {
        let n = numbers.get(term);
        if (n === undefined) numbers.set(term, (n = terms.push(term) - 1));
        pairs[at++] = n;
        pairs[at++] = tf[term]!;
      }
    }
    cache.set(hash, pairs);
    return pairs;
  };
  for (const [path, history] of files) {
    const tf = new Map<number, number>();
    let length = 0;
    for (const hash of history.commits) {
      const pairs = countsOf(hash);
      if (!pairs) continue;
      for (let i = 0; i < pairs.length; i += 2) {
        tf.set(pairs[i]!, (tf.get(pairs[i]!) ?? 0) + pairs[i + 1]!);
        length += pairs[i + 1]!;
      }
    }
    if (length === 0) continue;
    builder.add(paths.length, { terms: [...tf.keys()].map((n) => terms[n]!), tfs: [...tf.values()], length });
    paths.push(path);
  }
  return { bm25: builder.serialize(), paths: Buffer.from(paths.join("\n"), "utf8") };
}

/** Loads the history index; empty when there is no history (no git, or not indexed yet). */
export function loadHistoryIndex(store: IndexStore): HistoryIndex {
  const data = store.history.index();
  const paths = data.paths && data.paths.length > 0 ? data.paths.toString("utf8").split("\n") : [];
  return { bm25: Bm25Snapshot.parse(data.bm25), pathOf: (id) => paths[id], releaseNotes: habits(decodeRecent(data.recent) ?? []) };
}
