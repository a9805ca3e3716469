import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { open, type Database, type RootDatabase } from "lmdb";
import { ContextSmithError } from "../core/errors.js";
import { faultPoint, type FaultPoint } from "../core/fault.js";
import { writeLockExists } from "../runtime/lock.js";
import { DAMAGED_DATA } from "./damage.js";
import { isSealed, seal, SEAL_FILE, verifyInChild } from "./integrity.js";
import { mapSizeOption } from "./map-size.js";
import { checkDataFile } from "./preflight.js";
import { GraphTables } from "./tables/graph.js";
import { HistoryTables } from "./tables/history.js";
import { LexicalTables } from "./tables/lexical.js";
import { ParseTables } from "./tables/parse.js";
import { writeScope, type WriteScope } from "./tables/scope.js";
import { VectorTables } from "./tables/vectors.js";
import type { Language } from "../core/types.js";
import { SCHEMA_VERSION, type FileUpdate, type StoreMeta, type StoredFile, type StoredStat, type Totals } from "./types.js";

const DATA_FILE = "index.lmdb";
/** Left by a reader that met damaged pages: the next writer rebuilds. */
const DAMAGE_MARK = "damaged";
const META_KEY = "meta";

/** How a store was opened for writing. */
export interface OpenedForWrite {
  store: IndexStore;
  /** True when an existing index was discarded (schema change or corruption). */
  rebuilt: boolean;
  reason: string | null;
}

/**
 * The LMDB store under `<indexDir>`: one environment. The store itself keeps opening, closing,
 * the schema and the rebuild policy, the file records and the meta entry; each part's tables
 * (parse, lexical, history, graph, vectors) are a group of their own in `tables/`, behind typed
 * methods.
 *
 * Crash safety comes from LMDB itself (copy-on-write pages, atomic commits) plus one rule that the
 * API keeps: a file's record is committed with the journal entries of every part derived from it
 * ({@link IndexStore.writeBatch}), and a part's write methods settle its journal entries with its
 * data and throw outside {@link IndexStore.transaction}. A file is "indexed" exactly when its
 * record is committed. Readers see the last committed snapshot while a writer works (MVCC),
 * across threads and processes.
 */
export class IndexStore {
  readonly #env: RootDatabase;
  /** File records by path; the path is the key and is not repeated in the value. */
  readonly #files: Database<Omit<StoredFile, "path">, string>;
  /**
   * `[size, mtimeMs, hash]` by path, kept beside the file records: planning reads every one of
   * them on every run, and small arrays decode three times faster than the full records.
   */
  /** Size, mtime, content hash and the language the walk gave the file: what planning a run compares. */
  readonly #stats: Database<[number, number, string, Language | null], string>;
  // Each part's tables, owned by the group that writes them.
  readonly parse: ParseTables;
  readonly lexical: LexicalTables;
  readonly history: HistoryTables;
  readonly graph: GraphTables;
  readonly vectors: VectorTables;
  readonly #meta: Database<StoreMeta, string>;
  /** Write transactions running (0 or 1): the table groups write only inside one. */
  #writing = 0;
  readonly #scope: WriteScope;

  private constructor(
    readonly indexDir: string,
    readonly readOnly: boolean,
  ) {
    // lmdb-js shares one environment per path within a process and the first open's flags win:
    // a read-only open followed by the indexer's read-write open fails. So readers open
    // read-write too (that takes no lock until a write), and read-only only where writing is
    // impossible (a read-only file system or folder).
    this.#env = open({
      path: join(indexDir, DATA_FILE),
      noSubdir: true,
      maxDbs: 32,
      ...mapSizeOption(),
      readOnly,
      // Keys and values are small; compression costs more CPU than it saves here.
      compression: false,
    });
    this.#files = this.#env.openDB("files", {});
    this.#stats = this.#env.openDB("stats", {});
    const scope = (this.#scope = writeScope(() => this.#writing > 0, (change) => this.updateMeta(change)));
    this.parse = new ParseTables(this.#env, scope);
    this.lexical = new LexicalTables(this.#env, scope);
    this.history = new HistoryTables(this.#env, scope);
    this.graph = new GraphTables(this.#env, scope);
    this.vectors = new VectorTables(this.#env, scope);
    this.#meta = this.#env.openDB("meta", {});
  }

  /** Whether an index exists in `indexDir`. */
  static exists(indexDir: string): boolean {
    return existsSync(join(indexDir, DATA_FILE));
  }

  /**
   * Which data file `indexDir` holds now (device and inode), or null when there is none. A rebuild
   * (the folder deleted, a schema change, a damaged file replaced) makes a new file: a reader that
   * opened the old one must reopen, or it keeps answering from the deleted file (lmdb-js keeps an
   * environment per inode).
   */
  static identity(indexDir: string): string | null {
    try {
      const stat = statSync(join(indexDir, DATA_FILE));
      return `${stat.dev}:${stat.ino}`;
    } catch {
      return null;
    }
  }

  /**
   * Opens (or creates) the index for writing. A schema mismatch or an unreadable store is
   * discarded and created anew; the caller must hold the write lock.
   */
  static async openForWrite(indexDir: string): Promise<OpenedForWrite> {
    ensureIndexDir(indexDir);
    if (IndexStore.exists(indexDir)) {
      const existing = await IndexStore.#openExisting(indexDir);
      if (existing instanceof IndexStore) return { store: existing, rebuilt: false, reason: null };
      removeDataFiles(indexDir);
      const store = await IndexStore.#create(indexDir);
      return { store, rebuilt: true, reason: `${existing}; rebuilding` };
    }
    // A lock file without its data file (the data file deleted by hand) holds state of the old
    // environment that lmdb-js reads back: a write to the new file then fails on its freelist.
    removeDataFiles(indexDir);
    return { store: await IndexStore.#create(indexDir), rebuilt: false, reason: null };
  }

  /** The existing store if it is current and sound, else why it must be rebuilt. */
  static async #openExisting(indexDir: string): Promise<IndexStore | string> {
    const marked = readDamageMark(indexDir);
    if (marked !== null) return `a query found the index damaged (${marked})`;
    const dataFile = join(indexDir, DATA_FILE);
    const damage = checkDataFile(dataFile) ?? (isSealed(dataFile) ? null : verifyInChild(dataFile));
    if (damage) return damage;
    let store: IndexStore | undefined;
    let meta: StoreMeta | undefined;
    try {
      store = new IndexStore(indexDir, false);
      meta = store.#meta.get(META_KEY);
    } catch (error) {
      // Only a store LMDB (or the decoder) calls damaged is discarded; any other failure
      // (permissions, a full disk) is the user's to see, and their index is kept.
      await store?.close();
      if (!isCorruption(error)) throw error;
      return `the index could not be read (${(error as Error).message})`;
    }
    if (meta?.schema === SCHEMA_VERSION) return store;
    await store.close();
    return meta ? `the index has schema ${meta.schema}, this version uses ${SCHEMA_VERSION}` : "the index has no metadata (its creation was interrupted)";
  }

  static async #create(indexDir: string): Promise<IndexStore> {
    const store = new IndexStore(indexDir, false);
    await store.#env.transaction(() => {
      void store.#meta.put(META_KEY, freshMeta());
    });
    return store;
  }

  /**
   * Opens an existing, current index for writing from a second thread (the git-log worker)
   * while the main thread holds the write lock. Never rebuilds.
   */
  static attach(indexDir: string): IndexStore {
    const store = new IndexStore(indexDir, false);
    if (store.#meta.get(META_KEY)?.schema !== SCHEMA_VERSION) {
      void store.close();
      throw new ContextSmithError("INDEX_CORRUPT", `The index in ${indexDir} is not ready for writing.`);
    }
    return store;
  }

  /** Opens an existing index for reading; null when there is none (or it is still being created). */
  static openForRead(indexDir: string): IndexStore | null {
    if (!IndexStore.exists(indexDir)) return null;
    // An empty file is one a writer has just created and not yet initialised (LMDB writes both
    // meta pages at once): there is no index to read yet, and nothing damaged either.
    if (fileSize(join(indexDir, DATA_FILE)) === 0) return null;
    const dataFile = join(indexDir, DATA_FILE);
    // Unsealed and no writer at work (that one checks it itself): walk it in a child first, so a
    // damaged page crashes the check, not this reader. Only after a kill or an outside write.
    const damage = checkDataFile(dataFile) ?? (isSealed(dataFile) || writeLockExists(indexDir) ? null : verifyInChild(dataFile));
    if (damage) {
      IndexStore.markDamaged(indexDir, damage);
      throw new ContextSmithError("INDEX_CORRUPT", `The index in ${indexDir} is damaged (${damage}). Run \`ctxsmith index\` to rebuild it.`);
    }
    let store: IndexStore;
    try {
      store = IndexStore.#openPreferWritable(indexDir);
    } catch (error) {
      throw new ContextSmithError("INDEX_CORRUPT", `The index in ${indexDir} cannot be read: ${(error as Error).message}. Run \`ctxsmith index\` to rebuild it.`);
    }
    const meta = store.#meta.get(META_KEY);
    if (!meta) {
      // Created a moment ago by a writer that has not committed its first transaction yet.
      void store.close();
      return null;
    }
    if (meta.schema !== SCHEMA_VERSION) {
      void store.close();
      throw new ContextSmithError("INDEX_CORRUPT", `The index in ${indexDir} is from another version of ContextSmith. Run \`ctxsmith index\` to rebuild it.`);
    }
    return store;
  }

  static #openPreferWritable(indexDir: string): IndexStore {
    try {
      return new IndexStore(indexDir, false);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EROFS" || /permission denied|read-only file system/i.test((error as Error).message)) {
        return new IndexStore(indexDir, true);
      }
      throw error;
    }
  }

  meta(): StoreMeta {
    const meta = this.#meta.get(META_KEY);
    if (!meta) throw new ContextSmithError("INDEX_CORRUPT", "The index has no metadata.");
    return meta;
  }

  /** Updates the meta entry; call it inside a {@link IndexStore.transaction}. */
  updateMeta(change: (meta: StoreMeta) => void): void {
    this.#scope.check();
    const meta = this.meta();
    change(meta);
    void this.#meta.put(META_KEY, meta);
  }

  /**
   * Runs `action` in one write transaction; resolves once it is committed. An action that throws
   * writes nothing: lmdb-js commits what a plain `transaction` callback wrote before it threw (it
   * batches callbacks into one LMDB transaction), so the action runs in a child transaction of
   * its own, which a throw aborts. `fault` names the crash tests' fault point reached at its end,
   * before the commit (see core/fault.ts).
   */
  transaction<T>(action: () => T, fault?: FaultPoint): Promise<T> {
    return this.#env.childTransaction(() => {
      this.#writing++;
      try {
        const result = action();
        if (fault) faultPoint(fault);
        return result;
      } finally {
        this.#writing--;
      }
    });
  }

  /** The record of one file, or undefined. */
  file(path: string): StoredFile | undefined {
    const value = this.#files.get(path);
    return value && { path, ...value };
  }

  /** All file records, in path order. */
  *allFiles(): IterableIterator<StoredFile> {
    for (const { key, value } of this.#files.getRange()) yield { path: key, ...value };
  }

  /** The path of every file record, in path order (keys only: nothing decoded). */
  allPaths(): Iterable<string> {
    return this.#stats.getKeys();
  }

  /** Size, mtime, content hash and walked language of every file record, in path order. */
  *allStats(): IterableIterator<StoredStat> {
    for (const { key, value } of this.#stats.getRange()) yield { path: key, size: value[0], mtimeMs: value[1], hash: value[2], language: value[3] };
  }

  /** `walked`: the language the walk gave the file (a skipped file's record has none). */
  #putFile({ path, ...value }: StoredFile, walked: Language | null): void {
    void this.#files.put(path, value);
    void this.#stats.put(path, [value.size, value.mtimeMs, value.hash, walked]);
  }

  /**
   * Commits one batch of parse results and removals in a single transaction, with the totals,
   * id map and lexical journal that depend on them. Resolves to the records of the files it
   * (re)indexed.
   */
  async writeBatch(updates: readonly FileUpdate[], removed: readonly string[] = []): Promise<StoredFile[]> {
    const written: StoredFile[] = [];
    await this.transaction(() => {
      const meta = this.meta();
      for (const path of removed) this.#removeFile(path, meta.totals);
      for (const update of updates) {
        const old = this.file(update.path);
        if (update.kind === "touch") {
          if (old) this.#putFile({ ...old, size: update.size, mtimeMs: update.mtimeMs }, update.language);
          continue;
        }
        if (old) subtract(meta.totals, old);
        const id = old?.id ?? meta.nextId++;
        if (!old) this.lexical.assignId(id, update.path);
        this.#journalChange(update.path);
        if (update.kind === "skip") {
          this.parse.remove(update.path);
          this.#putFile({
            path: update.path, id, size: update.size, mtimeMs: update.mtimeMs, hash: update.hash,
            language: null, lines: 0, skipped: update.reason, symbols: 0, calls: 0, imports: 0, tokens: 0,
          }, update.language);
          continue;
        }
        const record: StoredFile = {
          path: update.path,
          id,
          size: update.size,
          mtimeMs: update.mtimeMs,
          hash: update.hash,
          language: update.language,
          lines: update.lines,
          skipped: null,
          ...update.counts,
        };
        this.parse.put(update.path, update);
        this.#putFile(record, update.language);
        add(meta.totals, record);
        written.push(record);
      }
      if (removed.length > 0 || updates.some((u) => u.kind !== "touch")) meta.versions.files++;
      void this.#meta.put(META_KEY, meta);
    }, "parse-commit");
    return written;
  }

  #removeFile(path: string, totals: Totals): void {
    const old = this.file(path);
    if (!old) return;
    subtract(totals, old);
    void this.#files.remove(path);
    void this.#stats.remove(path);
    this.parse.remove(path);
    this.lexical.releaseId(old.id);
    this.#journalChange(path);
  }

  /** A file's content changed or it was removed: every part derived from it is out of date. */
  #journalChange(path: string): void {
    this.lexical.markChanged(path);
    this.graph.markChanged(path);
    this.vectors.markChanged(path);
  }

  /**
   * Records that a reader met damaged pages (see {@link isDamage}): the next index run rebuilds
   * instead of trusting the file, even when it has nothing to re-index. Best effort: a read-only
   * index folder keeps no mark (and its index cannot be rebuilt there anyway).
   */
  static markDamaged(indexDir: string, why: string): void {
    try {
      writeFileSync(join(indexDir, DAMAGE_MARK), why.slice(0, 500));
    } catch {
      // read-only: nothing to do
    }
  }

  /** Seals the data file as the writer leaves it (see store/integrity.ts); call after closing the writer's store. */
  static seal(indexDir: string): void {
    seal(join(indexDir, DATA_FILE));
  }

  /** Deletes the index's data files (the caller holds the write lock and has closed every store on them). */
  static discard(indexDir: string): void {
    removeDataFiles(indexDir);
  }

  /** Bytes used on disk by the index folder's data file. */
  diskBytes(): number {
    try {
      return statSync(join(this.indexDir, DATA_FILE)).size;
    } catch {
      return 0;
    }
  }

  async close(): Promise<void> {
    await this.#env.close();
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Errors by which LMDB (or the decoder) says the data itself is damaged. */
function isCorruption(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /MDB_INVALID|MDB_CORRUPTED|MDB_VERSION_MISMATCH|MDB_PAGE_NOTFOUND|Data read, but end of buffer not reached|Unexpected end of MessagePack/i.test(message);
}

/**
 * Whether an error met while reading or writing an open index says that its pages are damaged:
 * LMDB's corruption codes (a damaged page can also leave a transaction unusable, MDB_BAD_TXN), a
 * record that no longer decodes, or a value whose own layout is broken (see damagedData).
 */
export function isDamage(error: unknown): boolean {
  if (error instanceof ContextSmithError) return false;
  const message = error instanceof Error ? error.message : String(error);
  return isCorruption(error) || message.startsWith(DAMAGED_DATA) || /MDB_BAD_TXN|MDB_BAD_VALSIZE|MDB_CURSOR_FULL|MDB_PAGE_FULL|Bad control character in string literal in JSON|is not valid JSON|Unexpected token .* in JSON|Invalid typed array length|Offset is outside the bounds|Invalid property type for record|Unexpected end of buffer|Unknown extension|Invalid record|Data read, but end of buffer|is outside of buffer bounds/i.test(message);
}

function freshMeta(): StoreMeta {
  return {
    schema: SCHEMA_VERSION,
    createdAt: Date.now(),
    nextId: 1,
    totals: { files: 0, symbols: 0, calls: 0, imports: 0, bytes: 0, tokens: 0 },
    gitHead: null,
    commits: 0,
    semantic: null,
    lastRun: null,
    lexicalFiles: null,
    versions: { files: 0, lexical: 0, history: 0, graph: 0, vectors: 0 },
  };
}

function add(totals: Totals, f: StoredFile): void {
  if (f.skipped) return;
  totals.files++;
  totals.symbols += f.symbols;
  totals.calls += f.calls;
  totals.imports += f.imports;
  totals.bytes += f.size;
  totals.tokens += f.tokens;
}

function subtract(totals: Totals, f: StoredFile): void {
  if (f.skipped) return;
  totals.files--;
  totals.symbols -= f.symbols;
  totals.calls -= f.calls;
  totals.imports -= f.imports;
  totals.bytes -= f.size;
  totals.tokens -= f.tokens;
}

/** Creates the index folder, git-ignored from the inside so it never shows up as untracked. */
export function ensureIndexDir(indexDir: string): void {
  try {
    // Not `recursive` where the parent exists: on a pseudo file system (/proc) Node 20's recursive
    // mkdir retries for ever instead of failing.
    if (existsSync(dirname(indexDir))) mkdirSync(indexDir);
    else mkdirSync(indexDir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const ignore = join(indexDir, ".gitignore");
  if (!existsSync(ignore)) writeFileSync(ignore, "# Created by ContextSmith: the index is local and rebuildable.\n*\n");
}

function removeDataFiles(indexDir: string): void {
  for (const name of [DATA_FILE, `${DATA_FILE}-lock`, DAMAGE_MARK, SEAL_FILE]) rmSync(join(indexDir, name), { force: true });
}

function readDamageMark(indexDir: string): string | null {
  try {
    return readFileSync(join(indexDir, DAMAGE_MARK), "utf8");
  } catch {
    return null;
  }
}
