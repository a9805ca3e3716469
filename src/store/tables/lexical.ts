import type { Database, RootDatabase } from "lmdb";
import { damagedData } from "../damage.js";
import { COMPRESSED, type WriteScope } from "./scope.js";

/**
 * The three BM25 statistics of a lexical snapshot: over file bodies, over each file's symbol text
 * (names, qualified names, signatures, docs), and over exact definition names (case kept: which
 * files define `RetryPolicy`).
 */
export type Bm25Part = "body" | "symbols" | "names";

/** One segment of a lexical snapshot, encoded: FlexSearch's export chunks and the BM25 statistics of its files. */
export interface LexicalSegmentData {
  flex: ReadonlyArray<[key: string, data: string]>;
  bm25: Record<Bm25Part, Buffer>;
}

/** A stored segment, read on demand. */
export interface LexicalSegment {
  bm25(part: Bm25Part): Buffer | undefined;
  /** FlexSearch's export chunks, as it wrote them. */
  flexChunks(): IterableIterator<[key: string, data: string]>;
}

const FLEX_PREFIX = "flex:";
const BM25_KEYS: Record<Bm25Part, string> = { body: "bm25", symbols: "bm25:symbols", names: "bm25:names" };
/** Which generation of segments is the snapshot, and how many: `{ generation, segments }`. */
const MANIFEST_KEY = "manifest";
/**
 * The key (no file's id: ids start at 1) of the whole id map as one value, present only while no
 * id was assigned or released since it was written: read in one piece, where a query otherwise
 * walks a key a file (babel: 27,000 keys, 40–80 ms of a one-shot query).
 */
const ID_MAP_KEY = 0;

/** The id map in one value: ids, and their paths joined by NUL (which no path holds). */
interface SealedIds {
  ids: number[];
  paths: string;
}

/** The keys of segment `index` of `generation` start with this. */
function segmentPrefix(generation: number, index: number): string {
  return `${generationPrefix(generation)}${index}:`;
}

function generationPrefix(generation: number): string {
  return `g${generation}.`;
}

/**
 * The lexical part: the snapshot (rewritten now and then), the journal of files changed since it
 * was written (replayed over it on load), and the id -> path map of its numeric document ids.
 *
 * A snapshot is written in segments, each the index of a share of the files: an indexer writes
 * each as it fills (staged under a new generation that no reader looks at), so what it holds in
 * memory is bounded by a segment, not by the repository. The last write of a snapshot puts its
 * last segment and the manifest that names the generation in one transaction, with the journal
 * emptied and every older key removed. Segments staged by a run that was killed are garbage
 * until the next snapshot, which removes them (a run that staged one always writes its snapshot).
 */
export class LexicalTables {
  readonly #snapshot: Database<Buffer, string>;
  /** Paths changed since the snapshot was written. */
  readonly #journal: Database<true, string>;
  readonly #ids: Database<string | SealedIds, number>;

  constructor(env: RootDatabase, private readonly scope: WriteScope) {
    this.#snapshot = env.openDB("lexical", { encoding: "binary", ...COMPRESSED });
    this.#journal = env.openDB("journal", {});
    this.#ids = env.openDB("paths", { keyEncoding: "uint32" });
  }

  /** Files changed since the snapshot. */
  pending(): Iterable<string> {
    return this.#journal.getKeys();
  }

  pendingCount(): number {
    return this.#journal.getKeysCount();
  }

  /** Every file's id -> path (removed files have none). */
  ids(): Map<number, string> {
    const sealed = this.#ids.get(ID_MAP_KEY);
    if (sealed !== undefined) {
      const { ids, paths } = typeof sealed === "object" && sealed !== null ? sealed : ({} as Partial<SealedIds>);
      const listed = typeof paths === "string" ? (paths === "" ? [] : paths.split("\0")) : null;
      if (!listed || !Array.isArray(ids) || ids.length !== listed.length) throw damagedData("the id map in one value does not pair ids with paths");
      return new Map(ids.map((id, i) => [id, listed[i]!]));
    }
    return this.#idsByKey();
  }

  /** The id map read a key a file. */
  #idsByKey(): Map<number, string> {
    const ids = new Map<number, string>();
    for (const { key, value } of this.#ids.getRange({ start: ID_MAP_KEY + 1 })) ids.set(key, value as string);
    return ids;
  }

  /** Whether the id map is in one value as well (see {@link sealIds}). */
  idsSealed(): boolean {
    return this.#ids.doesExist(ID_MAP_KEY);
  }

  /** Writes the id map as one value too, where it is not (at the end of a run: ids change with the files). */
  sealIds(): void {
    this.scope.check();
    if (this.idsSealed()) return;
    const ids = this.#idsByKey();
    void this.#ids.put(ID_MAP_KEY, { ids: [...ids.keys()], paths: [...ids.values()].join("\0") });
  }

  /** The snapshot's segments (none before the first snapshot is written). */
  segments(): LexicalSegment[] {
    const manifest = this.#manifest();
    if (!manifest) return [];
    return Array.from({ length: manifest.segments }, (_, i) => this.#segment(segmentPrefix(manifest.generation, i)));
  }

  /** The generation a new snapshot stages its segments under. */
  nextGeneration(): number {
    return (this.#manifest()?.generation ?? 0) + 1;
  }

  #manifest(): { generation: number; segments: number } | null {
    const value = this.#snapshot.get(MANIFEST_KEY);
    if (!value) return null;
    try {
      const parsed = JSON.parse(value.toString("utf8")) as { generation?: unknown; segments?: unknown };
      if (Number.isInteger(parsed.generation) && Number.isInteger(parsed.segments)) return { generation: parsed.generation as number, segments: parsed.segments as number };
    } catch {
      // damaged: read as none (an empty index) until the next snapshot
    }
    return null;
  }

  #segment(prefix: string): LexicalSegment {
    const snapshot = this.#snapshot;
    return {
      bm25: (part) => snapshot.get(prefix + BM25_KEYS[part]),
      *flexChunks() {
        const start = prefix + FLEX_PREFIX;
        for (const { key, value } of snapshot.getRange({ start, end: `${start}\uffff` })) yield [key.slice(start.length), value.toString("utf8")];
      },
    };
  }

  /** Journals a file whose content changed (or that was removed). */
  markChanged(path: string): void {
    this.scope.check();
    void this.#journal.put(path, true);
  }

  assignId(id: number, path: string): void {
    this.scope.check();
    void this.#ids.put(id, path);
    void this.#ids.remove(ID_MAP_KEY);
  }

  releaseId(id: number): void {
    this.scope.check();
    void this.#ids.remove(id);
    void this.#ids.remove(ID_MAP_KEY);
  }

  /**
   * Writes segment `index` of a snapshot being built under `generation` (see {@link nextGeneration}).
   * The first one also removes what a killed run staged under the same generation.
   */
  stageSegment(generation: number, index: number, data: LexicalSegmentData): void {
    this.scope.check();
    if (index === 0) {
      const start = generationPrefix(generation);
      for (const key of this.#snapshot.getKeys({ start, end: `${start}\uffff` })) void this.#snapshot.remove(key);
    }
    const prefix = segmentPrefix(generation, index);
    for (const [key, chunk] of data.flex) void this.#snapshot.put(prefix + FLEX_PREFIX + key, Buffer.from(chunk ?? "", "utf8"));
    for (const part of Object.keys(BM25_KEYS) as Bm25Part[]) void this.#snapshot.put(prefix + BM25_KEYS[part], data.bm25[part]);
  }

  /**
   * Makes the `segments` staged under `generation` the snapshot, holding `files` files: every other
   * key goes, and the journal it now covers is emptied.
   */
  writeSnapshot(generation: number, segments: number, files: number): void {
    this.scope.check();
    const keep = generationPrefix(generation);
    for (const key of this.#snapshot.getKeys()) if (!key.startsWith(keep)) void this.#snapshot.remove(key);
    void this.#snapshot.put(MANIFEST_KEY, Buffer.from(JSON.stringify({ generation, segments }), "utf8"));
    for (const key of this.#journal.getKeys()) void this.#journal.remove(key);
    this.scope.updateMeta((meta) => {
      meta.lexicalFiles = files;
      meta.versions.lexical++;
    });
  }
}
