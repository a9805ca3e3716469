import { ContextSmithError } from "../core/errors.js";
import { isTestPath } from "../core/languages.js";
import type { ProgressEvent } from "../core/types.js";
import { symbolSummaries, type Summary } from "./embed-summary.js";
import type { Embedder, Provenance } from "../runtime/embed/types.js";
import type { IndexStore } from "../store/store.js";
import type { FileVectors, SemanticMeta } from "../store/types.js";
import type { VectorCache } from "../store/vector-cache.js";
import { decodeVector, encodeVectors, roundToHalf } from "../store/vector-codec.js";
import { loadHnswlib, removeStaleHnswFiles, writeHnsw } from "../store/vector-index.js";

/** New summaries per transaction: a commit every few seconds of embedding, bounded memory. */
const CHUNK_SUMMARIES = 1024;
/** ...or this many files (most files of a chunk usually need no new vector at all). */
const CHUNK_FILES = 2048;

/** What one embed-stage run did. */
export interface EmbedUpdate {
  provenance: Provenance;
  /** Files whose vectors were brought up to date. */
  files: number;
  /** Summaries the model embedded in this run. */
  embedded: number;
  /** Summaries whose vectors came from the vector cache. */
  cached: number;
  /** Vectors in the index now. */
  vectors: number;
}

interface FilePlan {
  path: string;
  summaries: Summary[];
  old: FileVectors | undefined;
}

/**
 * The embed stage: brings the stored vectors up to date with the parsed symbols, driven by the
 * embed journal that every parse commit fills in the same transaction as the file records.
 *
 * 1. The model's provenance is compared with the index's: a different vector space (another
 *    model, provider or pooling) drops every vector and journals every file; the index is then
 *    `complete: false` (queries skip the semantic signal) until this stage finishes.
 * 2. Journalled files are planned in chunks: each function and class of a non-test file has a
 *    summary; a summary hash the file already has keeps its vector, a new one is looked up in the
 *    shared vector cache, then embedded. Each chunk commits its vectors with its journal entries
 *    removed: a killed run resumes where it stopped.
 * 3. The HNSW graph is patched (or rebuilt) and written beside the store.
 */
export async function updateEmbeddings(
  store: IndexStore,
  embedder: Embedder,
  cache: VectorCache | null,
  options: { emit?: (event: ProgressEvent) => void; signal?: AbortSignal; chunkSummaries?: number } = {},
): Promise<EmbedUpdate> {
  const provenance = await embedder.provenance();
  const emit = options.emit ?? (() => undefined);
  let semantic = store.meta().semantic;
  if (!semantic || semantic.provenance.key !== provenance.key) semantic = await resetVectors(store, provenance);
  const startVersion = semantic!.version;
  const pending = store.vectors.pending();
  const update: EmbedUpdate = { provenance, files: 0, embedded: 0, cached: 0, vectors: semantic!.vectors };
  const added: number[] = [];
  const removed: number[] = [];

  let chunk: FilePlan[] = [];
  let toEmbed = 0;
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    const result = await commitChunk(store, embedder, cache, provenance, chunk);
    added.push(...result.added);
    removed.push(...result.removed);
    update.files += chunk.length;
    update.embedded += result.embedded;
    update.cached += result.cached;
    emit({ stage: "embed", done: update.files, total: pending.length, embedded: update.embedded });
    chunk = [];
    toEmbed = 0;
  };
  for (const path of pending) {
    if (options.signal?.aborted) throw new ContextSmithError("ABORTED", "Indexing was cancelled.");
    const plan = planFile(store, path);
    const known = new Set(plan.old?.hashes);
    toEmbed += plan.summaries.filter((s) => !known.has(s.hash)).length;
    chunk.push(plan);
    if (toEmbed >= (options.chunkSummaries ?? CHUNK_SUMMARIES) || chunk.length >= CHUNK_FILES) await flush();
  }
  await flush();

  semantic = store.meta().semantic!;
  // Without hnswlib-node there is no graph to write: queries search by brute force.
  const graphDue = semantic.vectors > 0 && semantic.hnsw?.version !== semantic.version && loadHnswlib() !== null;
  const hnsw = graphDue ? writeHnsw(store, semantic, startVersion, added, removed) : semantic.hnsw;
  if (graphDue || !semantic.complete) {
    await store.transaction(() =>
      store.updateMeta((m) => {
        m.semantic = { ...m.semantic!, complete: true, hnsw };
        m.versions.vectors++;
      }),
    );
  }
  if (graphDue) removeStaleHnswFiles(store.indexDir, hnsw?.file ?? null);
  update.vectors = semantic.vectors;
  return update;
}

/** Drops every vector and journals every file for a new vector space. */
async function resetVectors(store: IndexStore, provenance: Provenance): Promise<SemanticMeta> {
  const old = store.meta().semantic;
  const fresh: SemanticMeta = { provenance, complete: false, vectors: 0, nextLabel: old?.nextLabel ?? 0, version: (old?.version ?? 0) + 1, hnsw: null };
  await store.transaction(() => {
    store.vectors.reset(store.allPaths());
    store.updateMeta((m) => {
      m.semantic = fresh;
      m.versions.vectors++;
    });
  });
  removeStaleHnswFiles(store.indexDir, null);
  return fresh;
}

/** The summaries a journalled file should have vectors for now, and what it has. */
function planFile(store: IndexStore, path: string): FilePlan {
  const record = store.file(path);
  const symbols = record && !record.skipped && record.language !== null && !isTestPath(path) ? store.parse.symbols(path) : undefined;
  return { path, summaries: symbols ? symbolSummaries(path, symbols) : [], old: store.vectors.of(path) };
}

async function commitChunk(
  store: IndexStore,
  embedder: Embedder,
  cache: VectorCache | null,
  provenance: Provenance,
  chunk: readonly FilePlan[],
): Promise<{ added: number[]; removed: number[]; embedded: number; cached: number }> {
  // Vectors for the summaries the files do not have yet: from the cache, else from the model.
  const vectors = new Map<string, Float32Array>();
  const missing = new Map<string, string>();
  for (const plan of chunk) {
    const known = new Set(plan.old?.hashes);
    for (const s of plan.summaries) {
      if (known.has(s.hash) || vectors.has(s.hash) || missing.has(s.hash)) continue;
      const hit = cache?.get(provenance.key, s.hash);
      if (hit && hit.length === provenance.dimension) vectors.set(s.hash, hit);
      else missing.set(s.hash, s.text);
    }
  }
  const cached = vectors.size;
  if (missing.size > 0) {
    const hashes = [...missing.keys()];
    const made = await embedder.embed([...missing.values()], "document");
    const fresh: Array<[string, Float32Array]> = hashes.map((h, i) => {
      const v = made[i]!;
      if (v.length !== provenance.dimension) throw new ContextSmithError("INTERNAL", `The model made a vector of ${v.length} dimensions, the index has ${provenance.dimension}.`);
      // Stored as float16 everywhere: rounded now, a vector is the same in the index, the cache and the graph.
      return [h, roundToHalf(v)];
    });
    for (const [h, v] of fresh) vectors.set(h, v);
    await cache?.putAll(provenance.key, fresh);
  }

  const added: number[] = [];
  const removed: number[] = [];
  await store.transaction(() =>
    store.updateMeta((meta) => {
      const semantic = meta.semantic!;
      for (const plan of chunk) {
        const old = plan.old;
        const hashes = plan.summaries.map((s) => s.hash);
        // A body edit leaves the summaries as they were: nothing to write (unchanged keys are not re-put).
        if (old && hashes.length === old.hashes.length && hashes.every((h, i) => h === old.hashes[i])) {
          store.vectors.putFile(plan.path, null);
          continue;
        }
        const oldAt = new Map(old?.hashes.map((h, i) => [h, i]));
        const labels: number[] = [];
        const kept: Float32Array[] = [];
        const fileAdded: Array<[number, string]> = [];
        const fileRemoved: number[] = [];
        for (const s of plan.summaries) {
          const at = oldAt.get(s.hash);
          if (at !== undefined && old) {
            labels.push(old.labels[at]!);
            kept.push(decodeVector(old.vectors, at, provenance.dimension));
            oldAt.delete(s.hash);
          } else {
            const label = semantic.nextLabel++;
            fileAdded.push([label, s.name]);
            labels.push(label);
            kept.push(vectors.get(s.hash)!);
            added.push(label);
          }
        }
        for (const at of oldAt.values()) fileRemoved.push(old!.labels[at]!);
        removed.push(...fileRemoved);
        store.vectors.putFile(plan.path, {
          vectors: labels.length > 0 ? { hashes, labels, names: plan.summaries.map((s) => s.name), vectors: encodeVectors(kept) } : null,
          added: fileAdded,
          removed: fileRemoved,
        });
      }
      semantic.vectors += added.length - removed.length;
      if (added.length + removed.length > 0) {
        semantic.version++;
        meta.versions.vectors++;
      }
    }),
    "embed-chunk",
  );
  return { added, removed, embedded: missing.size, cached };
}
