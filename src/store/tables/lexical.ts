import type { Database, RootDatabase } from "lmdb";
import { COMPRESSED, type WriteScope } from "./scope.js";

/**
 * The three BM25 statistics of a lexical snapshot: over file bodies, over each file's symbol text
 * (names, qualified names, signatures, docs), and over exact definition names (case kept: which
 * files define `RetryPolicy`).
 */
export type Bm25Part = "body" | "symbols" | "names";

/** A lexical snapshot, encoded: FlexSearch's export chunks and the BM25 statistics. */
export interface LexicalSnapshotData {
  flex: ReadonlyArray<[key: string, data: string]>;
  bm25: Record<Bm25Part, Buffer>;
  /** How many files it holds. */
  files: number;
}

const FLEX_PREFIX = "flex:";
const BM25_KEYS: Record<Bm25Part, string> = { body: "bm25", symbols: "bm25:symbols", names: "bm25:names" };

/**
 * The lexical part: the snapshot (rewritten now and then), the journal of files changed since it
 * was written (replayed over it on load), and the id -> path map of its numeric document ids.
 */
export class LexicalTables {
  readonly #snapshot: Database<Buffer, string>;
  /** Paths changed since the snapshot was written. */
  readonly #journal: Database<true, string>;
  readonly #ids: Database<string, number>;

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
    const ids = new Map<number, string>();
    for (const { key, value } of this.#ids.getRange()) ids.set(key, value);
    return ids;
  }

  bm25(part: Bm25Part): Buffer | undefined {
    return this.#snapshot.get(BM25_KEYS[part]);
  }

  /** FlexSearch's export chunks, as it wrote them. */
  *flexChunks(): IterableIterator<[key: string, data: string]> {
    for (const { key, value } of this.#snapshot.getRange({ start: FLEX_PREFIX, end: `${FLEX_PREFIX}\uffff` })) {
      yield [key.slice(FLEX_PREFIX.length), value.toString("utf8")];
    }
  }

  /** Journals a file whose content changed (or that was removed). */
  markChanged(path: string): void {
    this.scope.check();
    void this.#journal.put(path, true);
  }

  assignId(id: number, path: string): void {
    this.scope.check();
    void this.#ids.put(id, path);
  }

  releaseId(id: number): void {
    this.scope.check();
    void this.#ids.remove(id);
  }

  /** Replaces the snapshot and empties the journal it now covers. */
  writeSnapshot(data: LexicalSnapshotData): void {
    this.scope.check();
    for (const key of this.#snapshot.getKeys()) void this.#snapshot.remove(key);
    for (const [key, chunk] of data.flex) void this.#snapshot.put(FLEX_PREFIX + key, Buffer.from(chunk ?? "", "utf8"));
    for (const part of Object.keys(BM25_KEYS) as Bm25Part[]) void this.#snapshot.put(BM25_KEYS[part], data.bm25[part]);
    for (const key of this.#journal.getKeys()) void this.#journal.remove(key);
    this.scope.updateMeta((meta) => {
      meta.lexicalFiles = data.files;
      meta.versions.lexical++;
    });
  }
}
