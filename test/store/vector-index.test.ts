import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { normalize } from "../../src/runtime/embed/vector-math.js";
import { IndexStore } from "../../src/store/store.js";
import type { SemanticMeta } from "../../src/store/types.js";
import { decodeVector, encodeVectors, roundToHalf } from "../../src/store/vector-codec.js";
import { seededRandom } from "../helpers/random.js";
import { BruteForceIndex, loadHnswlib, openVectorSearch, writeHnsw } from "../../src/store/vector-index.js";

const DIM = 48;
const decodeAt = (bytes: Uint8Array, i: number): Float32Array => decodeVector(bytes, i, DIM);

/** Seeded unit vectors around a few centres: clustered, like summary embeddings. */
function vectors(n: number, seed: number): Float32Array[] {
  const next = seededRandom(seed);
  const rand = () => next() * 2 - 1;
  const centres = Array.from({ length: 12 }, () => Float32Array.from({ length: DIM }, rand));
  // Rounded to float16 as the embed stage does: stored and searched values are then the same.
  return Array.from({ length: n }, (_, i) => roundToHalf(normalize(Float32Array.from(centres[i % 12]!, (x) => x + 0.6 * rand()))));
}

describe("vector search: HNSW beside the store, brute force as fallback", () => {
  let dir: string;
  let store: IndexStore;
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function storeWith(points: Float32Array[]): Promise<SemanticMeta> {
    dir = mkdtempSync(join(tmpdir(), "ctxsmith-vectors-"));
    store = (await IndexStore.openForWrite(dir)).store;
    const semantic: SemanticMeta = { provenance: { provider: "local", model: "m", dimension: DIM, pooling: "mean", key: "k" }, complete: true, vectors: points.length, nextLabel: points.length, version: 1, hnsw: null };
    await store.transaction(() => {
      putVectors(points.map((v, label) => [label, v]));
      store.updateMeta((m) => (m.semantic = semantic));
    });
    return semantic;
  }

  /** Stores vectors as the embed stage does: one record per file (`f<label % 50>.py`), labels pointing at it. */
  function putVectors(entries: Array<[number, Float32Array]>): void {
    const files = new Map<string, Array<[number, Float32Array]>>();
    for (const [label, v] of entries) files.set(`f${label % 50}.py`, [...(files.get(`f${label % 50}.py`) ?? []), [label, v]]);
    for (const [path, list] of files) {
      const old = store.vectors.of(path) ?? { hashes: [], labels: [], names: [], vectors: Buffer.alloc(0) };
      const labels = [...old.labels, ...list.map(([l]) => l)];
      const all = [...old.labels.map((_, i) => decodeAt(old.vectors, i)), ...list.map(([, v]) => v)];
      store.vectors.putFile(path, {
        vectors: { hashes: labels.map(String), labels, names: labels.map((l) => `s${l}`), vectors: encodeVectors(all) },
        added: list.map(([label]) => [label, `s${label}`]),
        removed: [],
      });
    }
  }

  function removeVectors(labels: number[]): void {
    const drop = new Set(labels);
    for (const [key, value] of [...store.vectors.all()]) {
      const keep = value.labels.map((l, i) => [l, i] as const).filter(([l]) => !drop.has(l));
      if (keep.length === value.labels.length) continue;
      store.vectors.putFile(key, {
        vectors: { hashes: keep.map(([l]) => String(l)), labels: keep.map(([l]) => l), names: keep.map(([l]) => `s${l}`), vectors: encodeVectors(keep.map(([, i]) => decodeAt(value.vectors, i))) },
        added: [],
        removed: value.labels.filter((l) => drop.has(l)),
      });
    }
  }

  it("HNSW recall@10 is at least 0.95 against brute force", async () => {
    expect(loadHnswlib()).not.toBeNull(); // compiled at install on this machine: the test must not pass vacuously
    const semantic = await storeWith(vectors(4000, 7));
    const hnsw = writeHnsw(store, semantic, 0, [], [])!;
    await store.transaction(() => store.updateMeta((m) => (m.semantic = { ...semantic, hnsw })));
    const search = openVectorSearch(store, store.meta().semantic!);
    expect(search.kind).toBe("hnsw");
    const exact = BruteForceIndex.fromStore(store, DIM);
    let found = 0;
    const queries = vectors(100, 99);
    for (const q of queries) {
      const truth = new Set(exact.search(q, 10).map((n) => n.label));
      found += search.search(q, 10).filter((n) => truth.has(n.label)).length;
    }
    const recall = found / (queries.length * 10);
    expect(recall).toBeGreaterThanOrEqual(0.95);
    // Scores are cosine similarities in both.
    const [h] = search.search(queries[0]!, 1);
    const [b] = exact.search(queries[0]!, 1);
    expect(h!.score).toBeCloseTo(b!.score, 4);
  });

  it("brute force is exact: the best match of a stored vector is itself", async () => {
    const points = vectors(300, 3);
    await storeWith(points);
    const exact = BruteForceIndex.fromStore(store, DIM);
    expect(exact.size).toBe(300);
    for (const label of [0, 17, 299]) expect(exact.search(points[label]!, 1)[0]).toMatchObject({ label, score: expect.closeTo(1, 3) }); // float16: unit length within 1e-4
  });

  it("falls back to brute force when the HNSW file is missing or behind the vectors, with the same best results", async () => {
    const semantic = await storeWith(vectors(500, 5));
    const hnsw = writeHnsw(store, semantic, 0, [], [])!;
    // The graph is one version behind (a run killed between the vector commit and the graph write).
    await store.transaction(() => store.updateMeta((m) => (m.semantic = { ...semantic, version: 2, hnsw })));
    const behind = openVectorSearch(store, store.meta().semantic!);
    expect(behind.kind).toBe("brute-force");
    // The file is gone.
    rmSync(join(dir, hnsw.file));
    await store.transaction(() => store.updateMeta((m) => (m.semantic = { ...semantic, hnsw })));
    const missing = openVectorSearch(store, store.meta().semantic!);
    expect(missing.kind).toBe("brute-force");
    const q = vectors(1, 11)[0]!;
    expect(missing.search(q, 5)).toEqual(behind.search(q, 5));
  });

  it("patches the graph with added and deleted points; rebuilds past 20% deleted", async () => {
    const points = vectors(600, 13);
    const semantic = await storeWith(points.slice(0, 500));
    const first = writeHnsw(store, semantic, 0, [], [])!;
    expect(first).toMatchObject({ size: 500, deleted: 0 });
    // 100 added, 50 removed: patched.
    await store.transaction(() => {
      putVectors(Array.from({ length: 100 }, (_, i) => [500 + i, points[500 + i]!]));
      removeVectors(Array.from({ length: 50 }, (_, i) => i));
    });
    const next = { ...semantic, version: 2, vectors: 550, hnsw: first };
    const patched = writeHnsw(store, next, 1, Array.from({ length: 100 }, (_, i) => 500 + i), Array.from({ length: 50 }, (_, i) => i))!;
    expect(patched).toMatchObject({ file: "vectors-2.hnsw", size: 600, deleted: 50 });
    await store.transaction(() => store.updateMeta((m) => (m.semantic = { ...next, hnsw: patched })));
    const search = openVectorSearch(store, store.meta().semantic!);
    expect(search.kind).toBe("hnsw");
    expect(search.search(points[0]!, 20).some((n) => n.label < 50)).toBe(false); // deleted points are never found
    expect(search.search(points[550]!, 1)[0]!.label).toBe(550);
    // 150 more deleted: past 20%, rebuilt from the stored vectors.
    await store.transaction(() => {
      removeVectors(Array.from({ length: 150 }, (_, i) => 50 + i));
    });
    const rebuilt = writeHnsw(store, { ...next, version: 3, hnsw: patched }, 2, [], Array.from({ length: 150 }, (_, i) => 50 + i))!;
    expect(rebuilt).toMatchObject({ size: 400, deleted: 0 });
  });
});
