import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { dot } from "../embed/vector-math.js";
import type { IndexStore } from "./store.js";
import type { SemanticMeta } from "./types.js";
import { bufferToVector } from "./vector-cache.js";

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

type HnswModule = typeof import("hnswlib-node");
type Hnsw = InstanceType<HnswModule["HierarchicalNSW"]>;
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
    const index = new BruteForceIndex(dimension, store.vectors.getCount());
    for (const { key, value } of store.vectors.getRange()) index.add(key, bufferToVector(value.vector));
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
 * committing vectors and writing the graph). Null when the index has no vectors.
 */
export function openVectorSearch(store: IndexStore, semantic: SemanticMeta): VectorSearch | null {
  if (semantic.vectors === 0) return null;
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
      for (const label of added) {
        const stored = store.vectors.get(label);
        if (!stored) continue;
        index.addPoint(Array.from(bufferToVector(stored.vector)), label);
        size++;
      }
    } catch {
      index = null;
    }
  }
  if (!index) {
    const count = store.vectors.getCount();
    index = new hnswlib.HierarchicalNSW("cosine", dimension);
    index.initIndex({ maxElements: Math.max(16, count), m: HNSW_M, efConstruction: HNSW_EF_CONSTRUCTION, randomSeed: 100 });
    size = 0;
    deleted = 0;
    for (const { key, value } of store.vectors.getRange()) {
      index.addPoint(Array.from(bufferToVector(value.vector)), key);
      size++;
    }
  }
  const file = `vectors-${semantic.version}.hnsw`;
  const path = join(store.indexDir, file);
  index.writeIndexSync(`${path}.tmp`);
  renameSync(`${path}.tmp`, path);
  return { file, version: semantic.version, size, deleted };
}

/** Deletes HNSW files other than `keep` (older generations, temporary files of a killed run). */
export function removeStaleHnswFiles(indexDir: string, keep: string | null): void {
  for (const name of readdirSync(indexDir)) {
    if (/^vectors-\d+\.hnsw(\.tmp)?$/.test(name) && name !== keep) rmSync(join(indexDir, name), { force: true });
  }
}
