import { createRequire } from "node:module";
import type { Document } from "flexsearch";
import { ContextSmithError } from "../core/errors.js";
import { termStats, tokenize } from "../core/tokenize.js";
import { PLACE_KINDS, type ParsedFile, type TermStats } from "../core/types.js";
import { damagedData } from "./damage.js";
import type { IndexStore } from "./store.js";
import type { Bm25Part, LexicalSegmentData } from "./tables/lexical.js";
import type { LexicalInput, StoredFile } from "./types.js";

/**
 * The lexical index: a FlexSearch document index over each file's path and symbol text (names,
 * qualified names, signatures, first doc sentences), and the term statistics BM25 needs
 * (postings with term frequencies, document lengths) over bodies, symbol text and names. Bodies
 * are searched through BM25 only: a FlexSearch body field held another copy of every file's
 * terms (34 MB of heap on sympy while a cold index built it) for answers BM25 already gives.
 *
 * Both are derived data, rebuilt from the per-file `terms` and `parsed` tables. They are persisted
 * as a snapshot plus a journal: the indexer writes the paths it changes into the journal in the
 * same transaction as the change; a reader loads the snapshot and replays the journal (a few
 * files after a typical edit). When the journal grows past a fraction of the repository the
 * indexer writes a new snapshot. So a one-file edit never rewrites the whole lexical index, and a
 * crash can never make it disagree with the committed files.
 */

/** Rewrite the snapshot when the journal holds more than this share of the files... */
const REBUILD_SHARE = 0.1;
/** ...or more than this many paths. */
const REBUILD_MAX = 2000;

type LexicalDoc = { id: number; path: string; symbols: string };

function encode(text: string): string[] {
  return [...new Set(tokenize(text))];
}

// Loaded on first use: a no-change `index` run never touches the lexical index.
const require = createRequire(import.meta.url);
let flexsearch: typeof import("flexsearch") | undefined;

/** FlexSearch's fields, in the order it answers them (the order of `newDocument`'s index). */
const FIELDS = ["path", "symbols"] as const;

function newDocument(): Document<LexicalDoc> {
  flexsearch ??= require("flexsearch") as typeof import("flexsearch");
  return new flexsearch.Document<LexicalDoc>({
    document: {
      id: "id",
      index: [
        { field: "path", tokenize: "strict", encode, resolution: 3 },
        { field: "symbols", tokenize: "strict", encode, resolution: 5 },
      ],
    },
  });
}

/** The text of a file's `symbols` field. */
export function symbolsText(parsed: ParsedFile | null | undefined): string {
  return parsed ? parsed.symbols.map((s) => `${s.qualifiedName} ${s.signature} ${s.doc}`).join("\n") : "";
}

/** A stored file's lexical input. */
function storedInput(store: IndexStore, path: string): LexicalInput {
  return lexicalInput(store.parse.parsed(path), store.parse.terms(path));
}

/** A file's lexical input: in the parse worker, or from the stored tables. */
export function lexicalInput(parsed: ParsedFile | null | undefined, terms: TermStats | undefined): LexicalInput {
  const tf = terms?.tf ?? {};
  const list = Object.keys(tf);
  return { symbols: symbolsText(parsed), names: parsed ? parsed.symbols.flatMap((s) => (PLACE_KINDS.has(s.kind) ? [] : [s.name])) : [], terms: list, tfs: list.map((t) => tf[t]!), length: terms?.length ?? 0 };
}

function lexicalDoc(file: StoredFile, input: LexicalInput): LexicalDoc {
  return { id: file.id, path: file.path.replace(/[/._-]/g, " "), symbols: input.symbols };
}

/** Postings of one term: parallel arrays of file ids and term frequencies. */
export interface Postings {
  ids: Uint32Array;
  tfs: Uint16Array;
}

/** BM25 inputs, snapshot plus journal overlay. */
export interface Bm25Stats {
  /** Indexed files. */
  readonly docs: number;
  readonly avgLength: number;
  /** Number of files containing `term`. */
  df(term: string): number;
  /** Files containing `term`, with frequencies. */
  postings(term: string): Postings;
  /** Token count of a file, by id. */
  length(id: number): number;
}

/** A loaded lexical index. */
export interface LexicalIndex {
  /** BM25 statistics of file bodies (every token of the file). */
  readonly bm25: Bm25Stats;
  /** BM25 statistics of each file's symbol text: names, qualified names, signatures, first doc sentences. */
  readonly symbols: Bm25Stats;
  /** Exact definition names (case kept) -> the files defining them, with how many times. */
  readonly names: Bm25Stats;
  /** FlexSearch over paths and symbol text (one field, or both), best first, as file paths. */
  search(query: string, options?: { field?: "path" | "symbols"; limit?: number }): string[];
  /** Path of a file id. */
  pathOf(id: number): string | undefined;
  /** Every file of the index: id -> path. */
  readonly files: ReadonlyMap<number, string>;
}

/** Whether the indexer should rewrite the snapshot now. */
export function snapshotIsDue(store: IndexStore, pendingChanges = 0): boolean {
  const meta = store.meta();
  if (meta.lexicalFiles === null) return true;
  const pending = store.lexical.pendingCount() + pendingChanges;
  return pending > Math.min(REBUILD_MAX, Math.max(50, meta.totals.files * REBUILD_SHARE));
}

/** The index of one segment's files, as it is built. */
class SegmentBuilder {
  readonly #doc = newDocument();
  readonly #bm25 = new Bm25Builder();
  readonly #symbols = new Bm25Builder();
  readonly #names = new Bm25Builder();

  files = 0;

  get rows(): number {
    return this.#bm25.rows + this.#symbols.rows + this.#names.rows;
  }

  add(file: StoredFile, input: LexicalInput): void {
    this.files++;
    this.#doc.add(lexicalDoc(file, input));
    this.#bm25.add(file.id, input);
    this.#symbols.addText(file.id, input.symbols);
    this.#names.addTerms(file.id, input.names);
  }

  /** The segment's data; the builder is spent. */
  async encode(): Promise<LexicalSegmentData> {
    const flex: Array<[string, string]> = [];
    await this.#doc.export((key, data) => {
      flex.push([key, data]);
    });
    return { flex, bm25: { body: this.#bm25.serialize(), symbols: this.#symbols.serialize(), names: this.#names.serialize() } };
  }
}

/**
 * Builds a snapshot. The indexer feeds it each batch as it commits (the main thread is idle
 * while workers parse) and lets it {@link LexicalBuilder.flush} a full segment to the store; then
 * {@link LexicalBuilder.write} adds the files it did not see from the store and writes the
 * snapshot. What it holds is one segment's files, however large the repository.
 */
export class LexicalBuilder {
  #segment = new SegmentBuilder();
  readonly #seen = new Set<number>();
  readonly #generation: number;
  #staged = 0;

  constructor(
    private readonly store: IndexStore,
    /** Postings rows (over the three statistics) at which a segment is written and a new one begun (`Config.lexicalSegmentRows`). */
    private readonly segmentRows: number,
  ) {
    this.#generation = store.lexical.nextGeneration();
  }

  add(file: StoredFile, input: LexicalInput): void {
    if (file.skipped || this.#seen.has(file.id)) return;
    this.#seen.add(file.id);
    this.#segment.add(file, input);
  }

  /** Whether a segment was written already: the run must then write the snapshot, or leave it as garbage. */
  get staged(): boolean {
    return this.#staged > 0;
  }

  /** Writes the segment being built when it is full (in a transaction of its own), and begins the next. */
  async flush(): Promise<void> {
    if (this.#segment.rows < this.segmentRows) return;
    const data = await this.#nextSegment();
    await this.store.transaction(() => this.store.lexical.stageSegment(this.#generation, this.#staged++, data), "lexical-segment");
  }

  /** Completes the snapshot from the store and makes it the index's, clearing the journal, in one transaction. */
  async write(): Promise<void> {
    const { store } = this;
    // Listed first (by path: a record each would be a list as long as the repository): segments
    // are written between the reads, and no read may span a write.
    const unseen = [...store.allFiles()].flatMap((file) => (file.skipped || this.#seen.has(file.id) ? [] : [file.path]));
    for (const path of unseen) {
      const file = store.file(path);
      if (!file) continue;
      this.add(file, storedInput(store, path));
      await this.flush();
    }
    // The last segment, unless the last flush left it empty (a snapshot of no files still has one).
    const data = this.#segment.files > 0 || this.#staged === 0 ? await this.#nextSegment() : null;
    await store.transaction(() => {
      if (data) store.lexical.stageSegment(this.#generation, this.#staged++, data);
      store.lexical.writeSnapshot(this.#generation, this.#staged, this.#seen.size);
    }, "lexical-write");
  }

  /** The segment built so far, encoded, with a new one begun (the old one's memory can go while it is written). */
  #nextSegment(): Promise<LexicalSegmentData> {
    const full = this.#segment;
    this.#segment = new SegmentBuilder();
    return full.encode();
  }
}

/**
 * Loads the snapshot and replays the journal over it. Each part is parsed on first use: a caller
 * that only scores with BM25 never parses the FlexSearch export, and the other way round.
 */
export function loadLexical(store: IndexStore): LexicalIndex {
  // The journal: files changed since the snapshot. The snapshot may hold an older version of each
  // under the same id; that version is masked and the current one laid over it.
  const changed: Array<{ file: StoredFile; input: LexicalInput | null }> = [];
  for (const path of store.lexical.pending()) {
    const file = store.file(path);
    if (file) changed.push({ file, input: file.skipped ? null : storedInput(store, path) });
  }
  // Ids of removed files are absent from the id map, so they are never reported.
  const paths = store.lexical.ids();

  const segments = store.lexical.segments();
  // The statistics' bytes are read now, with the journal and the ids above (parsed on first use): a
  // writer that makes a new snapshot meanwhile removes these segments' keys, and a later read would
  // find nothing. A query reads all three anyway. FlexSearch's export, which no ranking reads, waits.
  const stored: Record<Bm25Part, Array<Buffer | undefined>> = {
    body: segments.map((segment) => segment.bm25("body")),
    symbols: segments.map((segment) => segment.bm25("symbols")),
    names: segments.map((segment) => segment.bm25("names")),
  };

  let bm25: Bm25Stats | undefined;
  let symbols: Bm25Stats | undefined;
  let names: Bm25Stats | undefined;
  let docs: Array<Document<LexicalDoc>> | undefined;
  const loadBm25 = (part: Bm25Part, add: (overlay: Bm25Builder, id: number, input: LexicalInput) => void): Bm25Stats => {
    const parts = stored[part].map((bytes) => Bm25Snapshot.parse(bytes));
    const base = parts.length === 1 ? parts[0]! : new SegmentedBm25(parts);
    const overlay = new Bm25Builder();
    const stale = new Set<number>();
    for (const { file, input } of changed) {
      stale.add(file.id);
      if (input) add(overlay, file.id, input);
    }
    for (const id of base.ids()) if (!paths.has(id)) stale.add(id);
    return new OverlaidBm25(base, overlay.freeze(), stale);
  };
  const loadDocuments = (): Array<Document<LexicalDoc>> => {
    const loaded = segments.map((segment) => {
      const d = newDocument();
      for (const [key, data] of segment.flexChunks()) d.import(key, data);
      return d;
    });
    // Before the first snapshot (a first build killed before it): the journal's files alone.
    if (loaded.length === 0) loaded.push(newDocument());
    // A changed file's old version may be in any segment; its current one joins the last.
    for (const { file, input } of changed) {
      for (const d of loaded) d.remove(file.id);
      if (input) loaded[loaded.length - 1]!.add(lexicalDoc(file, input));
    }
    return loaded;
  };
  return {
    get bm25() {
      return (bm25 ??= loadBm25("body", (overlay, id, input) => overlay.add(id, input)));
    },
    get symbols() {
      return (symbols ??= loadBm25("symbols", (overlay, id, input) => overlay.addText(id, input.symbols)));
    },
    get names() {
      return (names ??= loadBm25("names", (overlay, id, input) => overlay.addTerms(id, input.names)));
    },
    pathOf: (id) => paths.get(id),
    files: paths,
    search(query, options = {}) {
      docs ??= loadDocuments();
      const limit = options.limit ?? 50;
      // Each segment's answer, field by field (paths, then symbols), best first.
      const answers = docs.map((doc) => {
        // suggest: files matching only some of the query's tokens still come back, ranked lower
        // (a task says `chargeCard`, the code says `charge_card`).
        const results = doc.search(encode(query).join(" "), { limit, suggest: true, index: options.field ? [options.field] : undefined } as never) as unknown as Array<{ field: string; result: number[] }>;
        return new Map(results.map(({ field, result }) => [field, result]));
      });
      const seen = new Set<string>();
      // One field's hits of every segment before the next field's, the segments taking turns
      // within a field (FlexSearch gives ranks, not scores): one segment answers as it always did.
      for (const field of options.field ? [options.field] : FIELDS) {
        const lists = answers.map((byField) => byField.get(field) ?? []);
        for (let rank = 0; seen.size < limit && lists.some((ids) => rank < ids.length); rank++) {
          for (const ids of lists) {
            const path = rank < ids.length ? paths.get(ids[rank]!) : undefined;
            if (path) seen.add(path);
          }
        }
      }
      return [...seen].slice(0, limit);
    },
  };
}

/** What the journal overlay reads of a snapshot: one segment, or several. */
interface Bm25Base {
  ids(): Iterable<number>;
  has(id: number): boolean;
  length(id: number): number;
  postings(term: string): Postings;
}

/**
 * A snapshot of several segments as one: each file is in one segment, and a term's postings are
 * the segments' lists one after the other, in the order the files were added, as one snapshot of
 * them all would hold them.
 */
class SegmentedBm25 implements Bm25Base {
  readonly #lengths = new Map<number, number>();

  constructor(readonly segments: readonly Bm25Snapshot[]) {
    for (const segment of segments) for (const id of segment.ids()) this.#lengths.set(id, segment.length(id));
  }

  ids(): Iterable<number> {
    return this.#lengths.keys();
  }

  has(id: number): boolean {
    return this.#lengths.has(id);
  }

  length(id: number): number {
    return this.#lengths.get(id) ?? 0;
  }

  /** A fresh list where several segments have the term (the overlay above keeps long ones). */
  postings(term: string): Postings {
    const lists = this.segments.map((s) => s.postings(term)).filter((p) => p.ids.length > 0);
    if (lists.length <= 1) return lists[0] ?? { ids: new Uint32Array(0), tfs: new Uint16Array(0) };
    const ids = new Uint32Array(lists.reduce((n, p) => n + p.ids.length, 0));
    const tfs = new Uint16Array(ids.length);
    let at = 0;
    for (const p of lists) {
      ids.set(p.ids, at);
      tfs.set(p.tfs, at);
      at += p.ids.length;
    }
    return { ids, tfs };
  }
}

/** Rows in a builder's first chunk; each next chunk doubles, up to {@link MAX_CHUNK_ROWS}. */
const FIRST_CHUNK_ROWS = 1024;
const MAX_CHUNK_ROWS = 1 << 16;

/** A run of postings rows: term number, file id, frequency. */
interface RowChunk {
  terms: Uint32Array;
  ids: Uint32Array;
  tfs: Uint16Array;
}

/**
 * Collects postings in memory; used for snapshots, for the journal overlay and for the history
 * index. Postings are kept as (term number, file id, frequency) rows, ten bytes each, in chunks of
 * typed arrays rather than a JS array pair per term (66 MB of heap on sympy while a cold index built
 * its snapshot). Chunks, not one growable array: growing by half again held up to 1.5 times the
 * rows, and each growth held the old and the new array at once.
 *
 * {@link Bm25Builder.serialize} groups the rows by term with a counting sort, straight into the
 * snapshot's bytes, and lets go of each chunk once it is placed: the builder is spent after it.
 * So its peak is the rows plus the snapshot (16 bytes a posting), where it was the rows, their
 * grouped copy and the snapshot (up to 27).
 */
export class Bm25Builder {
  readonly #termNumbers = new Map<string, number>();
  readonly #terms: string[] = [];
  #chunks: RowChunk[] = [];
  /** Rows in the last chunk. */
  #filled = 0;
  #rows = 0;
  readonly #lengths = new Map<number, number>();

  /** Postings rows added. */
  get rows(): number {
    return this.#rows;
  }

  /** Adds a document by its terms (as in {@link LexicalInput}). */
  add(id: number, input: Pick<LexicalInput, "terms" | "tfs" | "length">): void {
    if (this.#chunks === SPENT) throw new ContextSmithError("INTERNAL", "Bm25Builder used after serialize()");
    this.#lengths.set(id, input.length);
    let chunk = this.#chunks[this.#chunks.length - 1];
    for (let i = 0; i < input.terms.length; i++) {
      const term = input.terms[i]!;
      let n = this.#termNumbers.get(term);
      if (n === undefined) {
        // A lone surrogate has no UTF-8 bytes of its own (they would be U+FFFD's): such a term is
        // left out, as a query never finds it (see #indexOf).
        n = isWellFormed(term) ? this.#terms.length : ILL_FORMED;
        this.#termNumbers.set(term, n);
        if (n !== ILL_FORMED) this.#terms.push(term);
      }
      if (n === ILL_FORMED) continue;
      if (!chunk || this.#filled === chunk.ids.length) {
        const size = chunk ? Math.min(chunk.ids.length * 2, MAX_CHUNK_ROWS) : FIRST_CHUNK_ROWS;
        chunk = { terms: new Uint32Array(size), ids: new Uint32Array(size), tfs: new Uint16Array(size) };
        this.#chunks.push(chunk);
        this.#filled = 0;
      }
      chunk.terms[this.#filled] = n;
      chunk.ids[this.#filled] = id;
      chunk.tfs[this.#filled++] = Math.min(input.tfs[i]!, 0xffff);
      this.#rows++;
    }
  }

  /** Adds a document by its text, tokenized with the code tokenizer. */
  addText(id: number, text: string): void {
    const { tf, length } = termStats(text);
    const terms = Object.keys(tf);
    this.add(id, { terms, tfs: terms.map((t) => tf[t]!), length });
  }

  /** Adds a document by its terms as they are (repeats counted), with no tokenizing. */
  addTerms(id: number, terms: readonly string[]): void {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    this.add(id, { terms: [...tf.keys()], tfs: [...tf.values()], length: terms.length });
  }

  /** The snapshot, read where {@link Bm25Builder.serialize} wrote it. The builder is spent. */
  freeze(): Bm25Snapshot {
    return Bm25Snapshot.parse(this.serialize());
  }

  /** The snapshot's bytes (see {@link Bm25Snapshot.parse}). The builder is spent. */
  serialize(): Buffer {
    if (this.#chunks === SPENT) throw new ContextSmithError("INTERNAL", "Bm25Builder serialized twice");
    const chunks = this.#chunks;
    this.#chunks = SPENT;
    this.#termNumbers.clear();
    const terms = this.#terms;
    const termCount = terms.length;
    // Sorted by code point, the order of their UTF-8 bytes, so a reader finds a term by binary
    // search over the bytes. JavaScript's `<` agrees unless a term holds a unit past U+D7FF.
    const compare = terms.some((t) => PAST_D7FF.test(t)) ? compareCodePoints : (a: string, b: string) => (a < b ? -1 : 1);
    const order = terms.map((_, n) => n).sort((a, b) => compare(terms[a]!, terms[b]!));
    const rank = new Uint32Array(termCount);
    order.forEach((n, i) => {
      rank[n] = i;
    });
    const layout = snapshotLayout(order.map((n) => terms[n]!), this.#rows, this.#lengths.size);
    const { offsets, ids, tfs, docIds, docLengths } = layout;
    // Counting sort by the term's rank; rows of one term keep the order they were added in.
    const rowsOf = (c: number): number => (c === chunks.length - 1 ? this.#filled : chunks[c]!.ids.length);
    for (let c = 0; c < chunks.length; c++) {
      const terms = chunks[c]!.terms;
      for (let r = 0, rows = rowsOf(c); r < rows; r++) offsets[rank[terms[r]!]! + 1]!++;
    }
    for (let i = 0; i < termCount; i++) offsets[i + 1]! += offsets[i]!;
    const next = offsets.slice(0, termCount);
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c]!;
      for (let r = 0, rows = rowsOf(c); r < rows; r++) {
        const at = next[rank[chunk.terms[r]!]!]!++;
        ids[at] = chunk.ids[r]!;
        tfs[at] = chunk.tfs[r]!;
      }
      chunks[c] = EMPTY_CHUNK; // placed: its memory can go
    }
    let d = 0;
    for (const [id, length] of this.#lengths) {
      docIds[d] = id;
      docLengths[d++] = length;
    }
    return layout.bytes;
  }
}

/** What a spent builder holds instead of its rows. */
const SPENT: RowChunk[] = [];
const EMPTY_CHUNK: RowChunk = { terms: new Uint32Array(0), ids: new Uint32Array(0), tfs: new Uint16Array(0) };

/** A term with a UTF-16 unit past U+D7FF: surrogates and U+E000–U+FFFF, which `<` orders otherwise than code points do. */
const PAST_D7FF = /[\ud800-\uffff]/;
/** A surrogate not in a pair (with the `u` flag a pair is one code point, not of this category). */
const LONE_SURROGATE = /\p{Cs}/u;
/** A term number that marks a term left out of the snapshot. */
const ILL_FORMED = -1;

/** Whether a string is Unicode text: no lone surrogates (as `String.prototype.isWellFormed`, which ES2023 lacks). */
function isWellFormed(text: string): boolean {
  return !PAST_D7FF.test(text) || !LONE_SURROGATE.test(text);
}

/** Orders strings by code point, as their UTF-8 bytes order (`<` compares UTF-16 units). */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointUnit(x) - codePointUnit(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit moved so that units compare in code point order: surrogates above U+E000–U+FFFF. */
function codePointUnit(unit: number): number {
  return unit < 0xd800 ? unit : unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/**
 * A snapshot's bytes, zeroed but for its terms, with views on each of its arrays. Layout: u32
 * header length, JSON header { n, p, d, t } (terms, postings, documents, bytes of terms), then the
 * arrays, each 4-byte aligned: where each term starts in the term bytes (n + 1), offsets (n + 1),
 * posting ids, posting frequencies, document ids, document lengths; then the terms' UTF-8 bytes,
 * one after the other, in code point order. A reader finds a term there by binary search: nothing
 * is decoded or scanned to open a snapshot (sympy's 77,000 body terms were a 1 MB JSON string,
 * parsed and scanned for its line breaks in 6 ms by every query process). One buffer of its own,
 * so a reader of it right away ({@link Bm25Snapshot.parse}) reads it where it is.
 */
function snapshotLayout(terms: readonly string[], postings: number, docs: number): { bytes: Buffer; offsets: Uint32Array; ids: Uint32Array; tfs: Uint16Array; docIds: Uint32Array; docLengths: Uint32Array } {
  const termCount = terms.length;
  const starts = new Uint32Array(termCount + 1);
  terms.forEach((term, i) => {
    starts[i + 1] = starts[i]! + Buffer.byteLength(term);
  });
  const termBytes = starts[termCount]!;
  const header = Buffer.from(JSON.stringify({ n: termCount, p: postings, d: docs, t: termBytes }));
  const { size, at } = layoutOf(header.length, termCount, postings, docs);
  const bytes = Buffer.alloc(size + termBytes);
  const buffer = bytes.buffer;
  const view = <T>(make: new (buffer: ArrayBufferLike, offset: number, length: number) => T, part: number, length: number): T => new make(buffer, bytes.byteOffset + at[part]!, length);
  new Uint32Array(buffer, bytes.byteOffset, 1)[0] = header.length;
  header.copy(bytes, 4);
  view(Uint32Array, 0, termCount + 1).set(starts);
  bytes.write(terms.join(""), size, "utf8");
  return {
    bytes,
    offsets: view(Uint32Array, 1, termCount + 1),
    ids: view(Uint32Array, 2, postings),
    tfs: view(Uint16Array, 3, postings),
    docIds: view(Uint32Array, 4, docs),
    docLengths: view(Uint32Array, 5, docs),
  };
}

/** Where a snapshot's arrays start (see `snapshotLayout`), and where its term bytes do. */
function layoutOf(headerLength: number, termCount: number, postings: number, docs: number): { size: number; at: number[] } {
  const aligned = (n: number): number => n + ((4 - (n % 4)) % 4);
  let size = aligned(4 + headerLength);
  const at = [(termCount + 1) * 4, (termCount + 1) * 4, postings * 4, aligned(postings * 2), docs * 4, docs * 4].map((bytes) => {
    const start = size;
    size += bytes;
    return start;
  });
  return { size, at };
}

/** Immutable postings in typed arrays; (de)serialised as one binary value. */
export class Bm25Snapshot implements Bm25Stats {
  readonly #lengths = new Map<number, number>();
  readonly totalLength: number;

  constructor(
    /** Where each term starts in `termBytes`, plus one past the end. */
    readonly termStarts: Uint32Array,
    /** The terms' UTF-8 bytes, in code point order, one after the other. */
    readonly termBytes: Uint8Array,
    readonly offsets: Uint32Array,
    readonly postingIds: Uint32Array,
    readonly postingTfs: Uint16Array,
    readonly docIds: Uint32Array,
    readonly docLengths: Uint32Array,
  ) {
    let total = 0;
    docIds.forEach((id, i) => {
      this.#lengths.set(id, docLengths[i]!);
      total += docLengths[i]!;
    });
    this.totalLength = total;
  }

  get termCount(): number {
    return this.termStarts.length - 1;
  }

  /** The terms, in order (for tests and tools: a query looks terms up). */
  terms(): string[] {
    const text = Buffer.from(this.termBytes.buffer, this.termBytes.byteOffset, this.termBytes.length);
    return Array.from({ length: this.termCount }, (_, i) => text.toString("utf8", this.termStarts[i], this.termStarts[i + 1]));
  }

  /** Position of `term` among the terms, or -1: a binary search comparing UTF-8 bytes. */
  #indexOf(term: string): number {
    if (!isWellFormed(term)) return -1;
    const key = Buffer.from(term, "utf8");
    const bytes = this.termBytes;
    const starts = this.termStarts;
    let lo = 0;
    let hi = this.termCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const start = starts[mid]!;
      const length = starts[mid + 1]! - start;
      let order = 0;
      for (let i = 0, n = Math.min(length, key.length); order === 0 && i < n; i++) order = bytes[start + i]! - key[i]!;
      if (order === 0) order = length - key.length;
      if (order === 0) return mid;
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  get docs(): number {
    return this.docIds.length;
  }

  get avgLength(): number {
    return this.docIds.length > 0 ? this.totalLength / this.docIds.length : 0;
  }

  *ids(): IterableIterator<number> {
    yield* this.docIds;
  }

  df(term: string): number {
    return this.postings(term).ids.length;
  }

  /** Token count of a document, or 0 when it is not in the snapshot (see {@link Bm25Snapshot.has}). */
  length(id: number): number {
    return this.#lengths.get(id) ?? 0;
  }

  has(id: number): boolean {
    return this.#lengths.has(id);
  }

  postings(term: string): Postings {
    const i = this.#indexOf(term);
    if (i < 0) return { ids: new Uint32Array(0), tfs: new Uint16Array(0) };
    const start = this.offsets[i]!;
    const end = this.offsets[i + 1]!;
    return { ids: this.postingIds.subarray(start, end), tfs: this.postingTfs.subarray(start, end) };
  }

  /** Reads a {@link Bm25Builder.serialize}d snapshot (laid out by `snapshotLayout`); it may keep `bytes`' memory, which the caller then leaves as it is. */
  static parse(bytes: Buffer | undefined): Bm25Snapshot {
    if (!bytes || bytes.length === 0) {
      return new Bm25Snapshot(new Uint32Array(1), new Uint8Array(0), new Uint32Array(1), new Uint32Array(0), new Uint16Array(0), new Uint32Array(0), new Uint32Array(0));
    }
    // Bytes that are a whole buffer of their own (LMDB's copy of a large value) are read where they
    // are; others are copied into a fresh, aligned buffer: a view into LMDB's memory map, or into a
    // decoded record, may be reused. The copy of sympy's 4.4 MB body snapshot, and decoding its
    // header out of fresh memory, took a third of its load in a one-shot query (50 of 75 ms).
    const owned = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length && bytes.buffer instanceof ArrayBuffer;
    const view = owned ? (bytes.buffer as ArrayBuffer) : Uint8Array.from(bytes).buffer;
    if (view.byteLength < 4) throw damagedSnapshot(`of ${view.byteLength} bytes`);
    const headerLength = new Uint32Array(view, 0, 1)[0]!;
    if (4 + headerLength > view.byteLength) throw damagedSnapshot(`with a header past its end`);
    let header: { n: number; p: number; d: number; t: number };
    try {
      header = JSON.parse(Buffer.from(view, 4, headerLength).toString("utf8")) as typeof header;
    } catch {
      throw damagedSnapshot("whose header is not JSON");
    }
    if (typeof header !== "object" || header === null || ![header.n, header.p, header.d, header.t].every((x) => Number.isSafeInteger(x) && x >= 0)) throw damagedSnapshot(`with header ${JSON.stringify(header)}`);
    const { size, at } = layoutOf(headerLength, header.n, header.p, header.d);
    if (size + header.t > view.byteLength) throw damagedSnapshot(`of ${view.byteLength} bytes where its layout needs ${size + header.t}`);
    const snapshot = new Bm25Snapshot(
      new Uint32Array(view, at[0]!, header.n + 1),
      new Uint8Array(view, size, header.t),
      new Uint32Array(view, at[1]!, header.n + 1),
      new Uint32Array(view, at[2]!, header.p),
      new Uint16Array(view, at[3]!, header.p),
      new Uint32Array(view, at[4]!, header.d),
      new Uint32Array(view, at[5]!, header.d),
    );
    // Where terms and postings lists start: a look-up trusts them (a binary search, a subarray).
    if (!runsUpTo(snapshot.termStarts, header.t)) throw damagedSnapshot("whose terms' starts are out of order");
    if (!runsUpTo(snapshot.offsets, header.p)) throw damagedSnapshot("whose postings' offsets are out of order");
    return snapshot;
  }
}

/** Whether `starts` begins at 0 and never decreases up to `end`, its last value. */
function runsUpTo(starts: Uint32Array, end: number): boolean {
  if (starts[0] !== 0 || starts[starts.length - 1] !== end) return false;
  for (let i = 1; i < starts.length; i++) if (starts[i]! < starts[i - 1]!) return false;
  return true;
}

/** A snapshot whose bytes cannot be what its writer laid out (see damagedData). */
function damagedSnapshot(what: string): Error {
  return damagedData(`a BM25 snapshot ${what}`);
}

/** The snapshot with stale ids masked and the journal's files laid over it. */
class OverlaidBm25 implements Bm25Stats {
  readonly docs: number;
  readonly avgLength: number;
  /** Long postings lists as answered (joined across segments, the journal laid over them). */
  readonly #merged = new Map<string, Postings>();

  constructor(
    readonly base: Bm25Base,
    readonly overlay: Bm25Snapshot,
    readonly stale: ReadonlySet<number>,
  ) {
    let docs = 0;
    let total = 0;
    for (const id of base.ids()) {
      if (stale.has(id)) continue;
      docs++;
      total += base.length(id);
    }
    docs += overlay.docIds.length;
    total += overlay.totalLength;
    this.docs = docs;
    this.avgLength = docs > 0 ? total / docs : 0;
  }

  df(term: string): number {
    return this.postings(term).ids.length;
  }

  postings(term: string): Postings {
    const known = this.#merged.get(term);
    if (known) return known;
    const base = this.base.postings(term);
    const over = this.overlay.postings(term);
    // A long list is made once: a query asks for a term's postings (and its df) several times,
    // and a common term's list is thousands long. Without this, one changed file made every warm
    // query copy the lists of all its terms again (sympy, long issue texts: rank 5 → 26 ms), and a
    // snapshot in segments would join them again. Short ones are made each time, so what is kept
    // stays within the snapshot's own postings (a list of one segment is a view of it, kept free).
    const list = this.stale.size === 0 && over.ids.length === 0 ? base : mergePostings(base, over, this.stale);
    if (base.ids.length >= MERGED_KEPT) this.#merged.set(term, list);
    return list;
  }

  length(id: number): number {
    if (!this.stale.has(id) && this.base.has(id)) return this.base.length(id);
    return this.overlay.length(id);
  }
}

/** Postings lists at least this long are kept once merged (see OverlaidBm25.postings). */
const MERGED_KEPT = 64;

/** `base`'s postings less the `stale` documents, then `over`'s. */
function mergePostings(base: Postings, over: Postings, stale: ReadonlySet<number>): Postings {
  const ids = new Uint32Array(base.ids.length + over.ids.length);
  const tfs = new Uint16Array(ids.length);
  let n = 0;
  for (let i = 0; i < base.ids.length; i++) {
    const id = base.ids[i]!;
    if (stale.has(id)) continue;
    ids[n] = id;
    tfs[n++] = base.tfs[i]!;
  }
  ids.set(over.ids, n);
  tfs.set(over.tfs, n);
  n += over.ids.length;
  return { ids: ids.subarray(0, n), tfs: tfs.subarray(0, n) };
}
