import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { dot } from "../runtime/embed/vector-math.js";
import type { IndexStore } from "./store.js";
import type { SemanticMeta } from "./types.js";
import { decodeVector } from "./vector-codec.js";

/** A vector found near a query: its label and cosine similarity. */
export interface Neighbour {
  label: number;
  score: number;
}

/** k-nearest-neighbour search over the index's vectors (unit vectors: cosine = dot product). */
export interface VectorSearch {
  readonly kind: "hnsw" | "brute-force";
  readonly size: number;
  search(query: Float32Array, k: number): Neighbour[];
}

/** HNSW graph parameters: M 16 and efConstruction 100 build fast and keep recall@10 above 0.95. */
const HNSW_M = 16;
const HNSW_EF_CONSTRUCTION = 100;
/** Candidates a search keeps (at least): recall@10 0.95+ on clustered 48–384-dimensional vectors. */
const EF_SEARCH = 200;
/** Rebuild instead of patching when more than this share of the graph is deleted points. */
const MAX_DELETED_SHARE = 0.2;

/**
 * The subset of hnswlib-node's API we use: an optional dependency (it compiles at install), so the
 * build must not need it installed.
 */
interface Hnsw {
  initIndex(options: { maxElements: number; m: number; efConstruction: number; randomSeed: number }): void;
  readIndexSync(path: string): void;
  writeIndexSync(path: string): void;
  resizeIndex(maxElements: number): void;
  getMaxElements(): number;
  addPoint(point: number[], label: number): void;
  markDelete(label: number): void;
  setEf(ef: number): void;
  searchKnn(query: number[], k: number): { neighbors: number[]; distances: number[] };
}
interface HnswModule {
  HierarchicalNSW: new (space: "cosine", dimension: number) => Hnsw;
}
let hnswModule: HnswModule | null | undefined;

/**
 * hnswlib-node, or null where it cannot load (it compiles at install; without a compiler it is
 * missing, and search falls back to brute force with the same results) or `CTXSMITH_NO_HNSW=1`.
 */
export function loadHnswlib(): HnswModule | null {
  // An escape hatch (and the tests' way to take the fallback path): exact search, no graph file.
  if (process.env.CTXSMITH_NO_HNSW === "1") return null;
  if (hnswModule === undefined) {
    try {
      hnswModule = createRequire(import.meta.url)("hnswlib-node") as HnswModule;
    } catch {
      hnswModule = null;
    }
  }
  return hnswModule;
}

/** Exact search: every vector in one Float32Array, scored by dot product. */
export class BruteForceIndex implements VectorSearch {
  readonly kind = "brute-force";
  #data: Float32Array;
  #labels: number[] = [];

  constructor(readonly dimension: number, capacity = 1024) {
    this.#data = new Float32Array(dimension * Math.max(1, capacity));
  }

  /** All vectors of the store. */
  static fromStore(store: IndexStore, dimension: number): BruteForceIndex {
    const index = new BruteForceIndex(dimension, store.vectors.labelCount());
    for (const [label, vector] of storedVectors(store, dimension)) index.add(label, vector);
    return index;
  }

  get size(): number {
    return this.#labels.length;
  }

  add(label: number, vector: Float32Array): void {
    const offset = this.#labels.length * this.dimension;
    if (offset + this.dimension > this.#data.length) {
      const grown = new Float32Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    this.#data.set(vector, offset);
    this.#labels.push(label);
  }

  search(query: Float32Array, k: number): Neighbour[] {
    // The k best in a small array kept sorted (best first): most vectors fail the first comparison.
    const best: Neighbour[] = [];
    for (let i = 0; i < this.#labels.length; i++) {
      const score = dot(query, this.#data, i * this.dimension);
      if (best.length === k && !(score > best[k - 1]!.score)) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { label: this.#labels[i]!, score });
      if (best.length > k) best.pop();
    }
    return best;
  }
}

/** An HNSW graph (hnswlib-node, cosine space). */
export class HnswIndex implements VectorSearch {
  readonly kind = "hnsw";

  constructor(readonly index: Hnsw, readonly size: number) {}

  search(query: Float32Array, k: number): Neighbour[] {
    const n = Math.min(k, this.size);
    if (n === 0) return [];
    this.index.setEf(Math.max(EF_SEARCH, 2 * n));
    const { neighbors, distances } = this.index.searchKnn(Array.from(query), n);
    return neighbors.map((label, i) => ({ label, score: 1 - distances[i]! }));
  }
}

/**
 * The search over an index's vectors for queries: its HNSW file when that holds the current
 * vectors, else brute force over the stored vectors (hnswlib-node missing, or a run killed between
 * committing vectors and writing the graph). Callers check {@link semanticReady} first.
 */
export function openVectorSearch(store: IndexStore, semantic: SemanticMeta): VectorSearch {
  const hnswlib = loadHnswlib();
  const file = semantic.hnsw && semantic.hnsw.version === semantic.version ? join(store.indexDir, semantic.hnsw.file) : null;
  if (hnswlib && file && existsSync(file)) {
    try {
      const index = new hnswlib.HierarchicalNSW("cosine", semantic.provenance.dimension);
      index.readIndexSync(file);
      return new HnswIndex(index, semantic.hnsw!.size - semantic.hnsw!.deleted);
    } catch {
      // A damaged or vanished file: the stored vectors are the truth.
    }
  }
  return BruteForceIndex.fromStore(store, semantic.provenance.dimension);
}

/**
 * Brings the HNSW file up to date after the embed stage changed vectors: patches the previous
 * graph (add new labels, mark removed ones deleted) when it holds `previousVersion` and stays
 * under 20% deleted, else builds one from all stored vectors. Writes `vectors-<version>.hnsw`
 * through a temporary file; the caller commits the returned record, then calls
 * {@link removeStaleHnswFiles}. Null when hnswlib-node is not available.
 */
export function writeHnsw(store: IndexStore, semantic: SemanticMeta, previousVersion: number, added: readonly number[], removed: readonly number[]): SemanticMeta["hnsw"] {
  const hnswlib = loadHnswlib();
  if (!hnswlib) return null;
  const dimension = semantic.provenance.dimension;
  const old = semantic.hnsw;
  const oldFile = old ? join(store.indexDir, old.file) : null;
  let index: Hnsw | null = null;
  let size = 0;
  let deleted = 0;
  if (old && oldFile && old.version === previousVersion && existsSync(oldFile) && (old.deleted + removed.length) / Math.max(1, old.size + added.length) <= MAX_DELETED_SHARE) {
    try {
      index = new hnswlib.HierarchicalNSW("cosine", dimension);
      index.readIndexSync(oldFile);
      ({ size, deleted } = old);
      index.resizeIndex(Math.max(index.getMaxElements(), size + added.length));
      for (const label of removed) {
        try {
          index.markDelete(label);
          deleted++;
        } catch {
          // not in the graph (added and removed between two graph writes)
        }
      }
      for (const [label, vector] of vectorsOf(store, added, dimension)) {
        index.addPoint(Array.from(vector), label);
        size++;
      }
    } catch {
      index = null;
    }
  }
  if (!index) {
    index = new hnswlib.HierarchicalNSW("cosine", dimension);
    index.initIndex({ maxElements: Math.max(16, store.vectors.labelCount()), m: HNSW_M, efConstruction: HNSW_EF_CONSTRUCTION, randomSeed: 100 });
    size = 0;
    deleted = 0;
    for (const [label, vector] of storedVectors(store, dimension)) {
      index.addPoint(Array.from(vector), label);
      size++;
    }
  }
  const file = `vectors-${semantic.version}.hnsw`;
  const path = join(store.indexDir, file);
  index.writeIndexSync(`${path}.tmp`);
  renameSync(`${path}.tmp`, path);
  return { file, version: semantic.version, size, deleted };
}

/** Every stored vector with its label, file by file. */
export function* storedVectors(store: IndexStore, dimension: number): IterableIterator<[number, Float32Array]> {
  for (const [, value] of store.vectors.all()) {
    for (let i = 0; i < value.labels.length; i++) yield [value.labels[i]!, decodeVector(value.vectors, i, dimension)];
  }
}

/** The stored vectors of `labels` (each file read once); labels no longer stored are left out. */
export function vectorsOf(store: IndexStore, labels: readonly number[], dimension: number): Map<number, Float32Array> {
  const wanted = new Set(labels);
  const paths = new Set<string>();
  for (const label of labels) {
    const at = store.vectors.label(label);
    if (at) paths.add(at[0]);
  }
  const out = new Map<number, Float32Array>();
  for (const path of paths) {
    const file = store.vectors.of(path);
    file?.labels.forEach((label, i) => {
      if (wanted.has(label)) out.set(label, decodeVector(file.vectors, i, dimension));
    });
  }
  return out;
}

/** Deletes HNSW files other than `keep` (older generations, temporary files of a killed run). */
export function removeStaleHnswFiles(indexDir: string, keep: string | null): void {
  for (const name of readdirSync(indexDir)) {
    if (/^vectors-\d+\.hnsw(\.tmp)?$/.test(name) && name !== keep) rmSync(join(indexDir, name), { force: true });
  }
}
