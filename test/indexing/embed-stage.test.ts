import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { LocalEmbedder } from "../../src/runtime/embed/local.js";
import { symbolSummaries } from "../../src/indexing/embed-summary.js";
import type { Embedder } from "../../src/runtime/embed/types.js";
import { updateEmbeddings } from "../../src/indexing/embed-stage.js";
import { IndexStore } from "../../src/store/store.js";
import { tinyModel } from "../runtime/embed/models.js";
import { shopRepo } from "../helpers/shop.js";
import type { TempRepo } from "../helpers/repo.js";
import { storeOf } from "../helpers/store.js";

const SEMANTIC_ONLY = { weights: { lexical: 0, symbols: 0, references: 0, history: 0, semantic: 1, cochange: 0, callgraph: 0, exactName: 0, centrality: 0 } };

describe("embed stage: symbol summaries -> vectors -> HNSW -> the semantic signal", () => {
  let repo: TempRepo;
  let model: string;
  let cacheDir: string;
  beforeAll(() => {
    repo = shopRepo();
    model = tinyModel();
    cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
  });
  afterAll(() => {
    repo.dispose();
    rmSync(model, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  });
  const engineFor = (indexDir?: string, modelDir = model) => new Engine(repo.root, { jobs: 2, git: false, indexDir, embedding: { model: modelDir, cacheDir } });

  /** The summaries the index should have vectors for: functions and classes of non-test files. */
  function expectedSummaries(store: IndexStore): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const file of store.allFiles()) {
      if (file.skipped || file.language === null || /(^|\/)tests?\//.test(file.path) || /test_/.test(file.path)) continue;
      const names = symbolSummaries(file.path, store.parse.symbols(file.path) ?? []).map((s) => s.name);
      if (names.length > 0) out.set(file.path, names.sort());
    }
    return out;
  }

  function storedSummaries(store: IndexStore): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [, value] of store.vectors.labels()) out.set(value[0], [...(out.get(value[0]) ?? []), value[1]].sort());
    return out;
  }

  it("embeds every function and class of the non-test files once, records provenance, writes an HNSW graph", async () => {
    const engine = engineFor();
    try {
      const stats = await engine.index();
      expect(stats.semantic).toMatchObject({ on: true, reason: null, cached: 0 });
      expect(stats.semantic.embedded).toBe(stats.semantic.vectors);
      const store = storeOf(engine)!;
      const meta = store.meta().semantic!;
      expect(meta).toMatchObject({ complete: true, provenance: { provider: "local", model, dimension: 32, pooling: "mean" } });
      expect(storedSummaries(store)).toEqual(expectedSummaries(store));
      expect(meta.vectors).toBe([...expectedSummaries(store).values()].flat().length);
      expect(meta.hnsw?.version).toBe(meta.version);
      expect(existsSync(join(engine.config.indexDir, meta.hnsw!.file))).toBe(true);
      expect(store.vectors.pendingCount()).toBe(0);
      expect(engine.status()).toMatchObject({ semantic: true, semanticModel: `local ${model}` });
      // A second run has nothing to do.
      const again = await engine.index();
      expect(again.semantic).toMatchObject({ on: true, embedded: 0, cached: 0, vectors: meta.vectors });
    } finally {
      await engine.close();
    }
  });

  it("ranks by the semantic signal: a task worded like a summary finds its file first", async () => {
    const engine = engineFor();
    try {
      const summary = symbolSummaries("shop/payments/card.py", storeOf(engine)!.parse.symbols("shop/payments/card.py")!).find((s) => s.name === "charge_card")!;
      const ranked = await engine.rank(summary.text, { ranking: SEMANTIC_ONLY });
      expect(ranked.notices).toBeUndefined();
      expect(ranked.files[0]?.path).toBe("shop/payments/card.py");
      expect(ranked.files[0]?.signals.semantic?.evidence).toMatch(/charge_card 1\.00/);
      // The default fusion runs it too.
      const fused = await engine.rank("charge the card again when it was declined");
      expect(fused.files.some((f) => f.signals.semantic !== undefined)).toBe(true);
    } finally {
      await engine.close();
    }
  });

  it("re-embeds only the changed symbols of an edited file; a fresh index takes every vector from the cache", async () => {
    const engine = engineFor();
    try {
      repo.write({ "shop/payments/card.py": `${readFileSync(repo.path("shop/payments/card.py"), "utf8")}\n\ndef refund_card(card, amount):\n    """Gives the amount back."""\n    return amount\n` });
      const stats = await engine.index();
      expect(stats.semantic).toMatchObject({ embedded: 1, cached: 0 });
      expect(storedSummaries(storeOf(engine)!)).toEqual(expectedSummaries(storeOf(engine)!));
    } finally {
      await engine.close();
    }
    const fresh = mkdtempSync(join(tmpdir(), "ctxsmith-fresh-"));
    const other = engineFor(join(fresh, "index"));
    try {
      const stats = await other.index();
      expect(stats.semantic.embedded).toBe(0);
      expect(stats.semantic.cached).toBe(stats.semantic.vectors);
    } finally {
      await other.close();
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it("a model change rebuilds the vectors in the new space; queries with the old model get a notice instead of mixed spaces", async () => {
    const second = tinyModel({ seed: 99, hidden: 48, heads: 4, intermediate: 96, pooling: "cls" });
    const indexDir = mkdtempSync(join(tmpdir(), "ctxsmith-switch-"));
    try {
      const first = engineFor(indexDir);
      await first.index();
      const before = storeOf(first)!.meta().semantic!;
      await first.close();

      const switched = engineFor(indexDir, second);
      const stats = await switched.index();
      const after = storeOf(switched)!.meta().semantic!;
      expect(after.provenance).toMatchObject({ model: second, dimension: 48, pooling: "cls" });
      expect(after.provenance.key).not.toBe(before.provenance.key);
      expect(stats.semantic.embedded).toBe(after.vectors);
      expect(after.vectors).toBe(before.vectors);
      // Only the current graph file is left.
      expect(readdirSync(indexDir).filter((f) => f.endsWith(".hnsw"))).toEqual([after.hnsw!.file]);
      await switched.close();

      // The index is in the second model's space; a query configured with the first one is told so.
      const stale = engineFor(indexDir);
      const ranked = await stale.rank("charge the card", { refresh: false });
      expect(ranked.notices?.[0]).toMatch(/vectors are from local .* not the model configured now/);
      expect(ranked.files.every((f) => f.signals.semantic === undefined)).toBe(true);
      await stale.close();
    } finally {
      rmSync(indexDir, { recursive: true, force: true });
      rmSync(second, { recursive: true, force: true });
    }
  });

  it("a run that fails half-way is resumed by the next; meanwhile queries skip the semantic signal with a notice", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "ctxsmith-resume-"));
    const privateCache = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
    try {
      const lexical = new Engine(repo.root, { jobs: 1, git: false, indexDir, semantic: false });
      await lexical.index();
      await lexical.close();

      const { store } = await IndexStore.openForWrite(indexDir);
      const real = new LocalEmbedder({ model, locate: async () => model, quantized: false, cacheDir: privateCache, threads: 1, keepAlive: 0 });
      let calls = 0;
      const failing: Embedder = {
        provenance: () => real.provenance(),
        embed: (texts, kind) => (++calls === 2 ? Promise.reject(new Error("the model server went away")) : real.embed(texts, kind)),
        close: () => real.close(),
      };
      await expect(updateEmbeddings(store, failing, null, { chunkSummaries: 3 })).rejects.toThrow(/went away/);
      const partial = store.meta().semantic!;
      expect(partial.complete).toBe(false);
      expect(partial.vectors).toBeGreaterThanOrEqual(3);
      expect(store.vectors.pendingCount()).toBeGreaterThan(0);
      await failing.close();
      await store.close();

      const engine = new Engine(repo.root, { jobs: 1, git: false, indexDir, embedding: { model, cacheDir: privateCache } });
      const skipped = await engine.rank("charge the card", { refresh: false });
      expect(skipped.notices?.[0]).toMatch(/still being built/);
      const stats = await engine.index();
      expect(stats.semantic.embedded).toBe(stats.semantic.vectors - partial.vectors);
      expect(storedSummaries(storeOf(engine)!)).toEqual(expectedSummaries(storeOf(engine)!));
      expect(storeOf(engine)!.meta().semantic).toMatchObject({ complete: true });
      expect((await engine.rank("charge the card", { refresh: false })).notices).toBeUndefined();
      await engine.close();
    } finally {
      rmSync(indexDir, { recursive: true, force: true });
      rmSync(privateCache, { recursive: true, force: true });
    }
  });

  it("without hnswlib-node the vectors are searched by brute force, with the same best hit; a later run writes the graph", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "ctxsmith-nohnsw-"));
    process.env.CTXSMITH_NO_HNSW = "1";
    try {
      const engine = engineFor(indexDir);
      const stats = await engine.index();
      expect(stats.semantic.on).toBe(true);
      expect(storeOf(engine)!.meta().semantic).toMatchObject({ complete: true, hnsw: null });
      expect(readdirSync(indexDir).filter((f) => f.endsWith(".hnsw"))).toEqual([]);
      const versions = storeOf(engine)!.meta().versions;
      await engine.index(); // nothing to do: no graph to write, no commit
      expect(storeOf(engine)!.meta().versions).toEqual(versions);
      const summary = symbolSummaries("shop/payments/retry.py", storeOf(engine)!.parse.symbols("shop/payments/retry.py")!)[0]!;
      const brute = await engine.rank(summary.text, { ranking: SEMANTIC_ONLY, refresh: false });
      expect(brute.files[0]?.path).toBe("shop/payments/retry.py");
      await engine.close();

      delete process.env.CTXSMITH_NO_HNSW;
      const later = engineFor(indexDir);
      await later.index();
      expect(storeOf(later)!.meta().semantic!.hnsw).not.toBeNull();
      const graph = await later.rank(summary.text, { ranking: SEMANTIC_ONLY, refresh: false });
      expect(graph.files.map((f) => f.path).slice(0, 3)).toEqual(brute.files.map((f) => f.path).slice(0, 3));
      await later.close();
    } finally {
      delete process.env.CTXSMITH_NO_HNSW;
      rmSync(indexDir, { recursive: true, force: true });
    }
  });

  it("without a model (offline, not cached) or with --no-semantic, indexing finishes lexically and says why", async () => {
    const indexDir = mkdtempSync(join(tmpdir(), "ctxsmith-nomodel-"));
    try {
      const missing = new Engine(repo.root, { jobs: 1, git: false, indexDir, embedding: { model: "BAAI/bge-small-en-v1.5", cacheDir, offline: true } });
      const stats = await missing.index();
      expect(stats.semantic).toMatchObject({ on: false, vectors: 0 });
      expect(stats.semantic.reason).toMatch(/not in the cache .* offline mode is on/);
      expect(stats.totals.files).toBeGreaterThan(5);
      const ranked = await missing.rank("charge the card");
      expect(ranked.files.length).toBeGreaterThan(0);
      expect(ranked.notices).toBeUndefined();
      await missing.close();

      const off = new Engine(repo.root, { jobs: 1, git: false, indexDir, semantic: false, embedding: { model, cacheDir } });
      expect((await off.index()).semantic).toMatchObject({ on: false, reason: "--no-semantic" });
      await off.close();
    } finally {
      rmSync(indexDir, { recursive: true, force: true });
    }
  });
});
