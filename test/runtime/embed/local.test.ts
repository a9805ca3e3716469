import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { approxTokens, LocalEmbedder, LocalReranker, lengthBatches } from "../../../src/runtime/embed/local.js";
import { readModelCard } from "../../../src/runtime/embed/model-dir.js";
import { DEFAULT_EMBED_MODEL, resolveEmbeddingSettings } from "../../../src/core/embedding-settings.js";
import { rerankFiles } from "../../../src/query/rerank.js";
import { tinyModel } from "./models.js";

const mean = tinyModel();
const cls = tinyModel({ pooling: "cls" });
const cross = tinyModel({ crossEncoder: true, seed: 5 });
const last = tinyModel({ pooling: "last" });
// A model whose folder has a SentencePiece (Unigram) tokenizer, as XLM-R-based models (bge-m3) ship, and its query prompt.
const unigram = tinyModel({ seed: 3 }, { vocabTxt: false });
writeFileSync(`${unigram}/tokenizer.json`, JSON.stringify(unigramTokenizerJson(readFileSync(`${unigram}/tokenizer.json`, "utf8"))));
writeFileSync(`${unigram}/config_sentence_transformers.json`, JSON.stringify({ prompts: { query: "query: ", document: "" } }));
afterAll(() => {
  for (const dir of [mean, cls, cross, last, unigram]) rmSync(dir, { recursive: true, force: true });
});

/** XLM-R's tokenizer shape over the generated vocabulary's ids: `<s>` = [CLS], `</s>` = [SEP], `<pad>` = [PAD], pieces with `▁`. */
function unigramTokenizerJson(bertJson: string): Record<string, unknown> {
  const ids = (JSON.parse(bertJson) as { model: { vocab: Record<string, number> } }).model.vocab;
  const specials: Array<[string, number]> = [["<s>", ids["[CLS]"]!], ["</s>", ids["[SEP]"]!], ["<pad>", ids["[PAD]"]!], ["<unk>", ids["[UNK]"]!]];
  const pieces = ["charge", "card", "retry", "policy", "cart", "total"].map((w): [string, number, number] => [`▁${w}`, -2, ids[w]!]);
  const letters = "abcdefghijklmnopqrstuvwxyz".split("").map((c): [string, number, number] => [c, -6, ids[c]!]);
  const vocab: Array<[string, number]> = [];
  for (const [token, score, id] of [...specials.map(([t, id]): [string, number, number] => [t, 0, id]), ...pieces, ["▁", -3, ids["_"]!] as [string, number, number], ...letters]) vocab[id] = [token, score];
  for (let i = 0; i < vocab.length; i++) vocab[i] ??= [`<unused${i}>`, -100];
  return {
    added_tokens: specials.map(([content, id]) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: null,
    pre_tokenizer: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    post_processor: { type: "RobertaProcessing", sep: ["</s>", ids["[SEP]"]], cls: ["<s>", ids["[CLS]"]], trim_offsets: true, add_prefix_space: true },
    decoder: { type: "Metaspace", replacement: "▁", prepend_scheme: "always", split: true },
    model: { type: "Unigram", unk_id: ids["[UNK]"], byte_fallback: false, vocab },
  };
}

const local = (dir: string, keepAlive: number | "always" = "always") => new LocalEmbedder({ model: dir, locate: async () => dir, quantized: false, cacheDir: tmpdir(), threads: 2, keepAlive });
const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("local ONNX embedder (generated BERT-shaped models in the embed pool)", () => {
  it("makes unit vectors of the model's dimension, the same for a text whatever its batch (padding masked)", async () => {
    const embedder = local(mean);
    try {
      const [alone] = await embedder.embed(["charge card"], "document");
      const texts = ["retry policy for a declined card before charging again ".repeat(4), "charge card", "cart total", ...Array.from({ length: 40 }, (_, i) => `price ${i}`)];
      const mixed = await embedder.embed(texts, "document");
      expect(mixed).toHaveLength(texts.length);
      expect(alone).toHaveLength(32);
      for (const v of mixed) expect(norm(v)).toBeCloseTo(1, 5);
      for (let d = 0; d < 32; d++) expect(mixed[1]![d]).toBeCloseTo(alone![d]!, 5);
      expect(cosine(mixed[0]!, mixed[2]!)).toBeLessThan(0.9999);
      expect(await embedder.provenance()).toMatchObject({ provider: "local", dimension: 32, pooling: "mean" });
    } finally {
      await embedder.close();
    }
  });

  it("pools as the model folder says: CLS and mean give different spaces and keys", async () => {
    const a = local(mean);
    const b = local(cls);
    try {
      const [pa, pb] = [await a.provenance(), await b.provenance()];
      expect(pb.pooling).toBe("cls");
      expect(pa.key).not.toBe(pb.key);
      const [va] = await a.embed(["charge card"], "document");
      const [vb] = await b.embed(["charge card"], "document");
      expect(cosine(va!, vb!)).toBeLessThan(0.999);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("pools the last real token where the folder says so (decoder-based embedders), padding or not", async () => {
    const embedder = local(last);
    const reference = local(mean);
    try {
      expect(await embedder.provenance()).toMatchObject({ pooling: "last" });
      const [alone] = await embedder.embed(["charge card"], "document");
      const [, padded] = await embedder.embed(["retry policy for a declined card before charging again", "charge card"], "document");
      for (let d = 0; d < 32; d++) expect(padded![d]).toBeCloseTo(alone![d]!, 5);
      expect(cosine(alone!, (await reference.embed(["charge card"], "document"))[0]!)).toBeLessThan(0.999);
      expect((await embedder.provenance()).key).not.toBe((await reference.provenance()).key);
    } finally {
      await embedder.close();
      await reference.close();
    }
  });

  it("a model with a SentencePiece (Unigram) tokenizer loads and embeds; its folder's query prompt is put before queries", async () => {
    const embedder = local(unigram);
    try {
      const [card, cart] = await embedder.embed(["charge card", "cart total"], "document");
      expect(norm(card!)).toBeCloseTo(1, 5);
      expect(cosine(card!, cart!)).toBeLessThan(0.9999);
      expect(readModelCard(unigram, "BAAI/bge-m3", false).queryPrefix).toBe("query: ");
      // The prompt changes the query's vector, not the space: documents and the key are the same.
      const [query] = await embedder.embed(["charge card"], "query");
      expect(cosine(query!, card!)).toBeLessThan(0.9999);
      const [plain] = await embedder.embed(["query: charge card"], "document");
      for (let d = 0; d < 32; d++) expect(query![d]).toBeCloseTo(plain![d]!, 5);
    } finally {
      await embedder.close();
    }
  });

  it("CodeRankEmbed is read with CLS pooling and its code-search query prefix, from its id alone", () => {
    const bare = tinyModel();
    try {
      rmSync(`${bare}/1_Pooling`, { recursive: true });
      const card = readModelCard(bare, "nomic-ai/CodeRankEmbed", false);
      expect(card).toMatchObject({ pooling: "cls", queryPrefix: "Represent this query for searching relevant code: " });
      expect(readModelCard(bare, "some/other-model", false)).toMatchObject({ pooling: "mean", queryPrefix: "" });
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("keep-alive 0 lets the worker pool go after each call; always keeps it until close", async () => {
    const transient = local(mean, 0);
    await transient.embed(["card"], "document");
    await new Promise((r) => setTimeout(r, 50));
    expect(transient.resident).toBe(false);
    const kept = local(mean, "always");
    await kept.embed(["card"], "document");
    expect(kept.resident).toBe(true);
    await kept.close();
    expect(kept.resident).toBe(false);
  });

  it("batches texts of similar length together, within a padded-token budget", () => {
    const texts = ["a b c d", "a", "a b, c", "a b", "a b c d e"];
    expect(approxTokens("a b, c")).toBe(6); // 3 words, a comma, [CLS] and [SEP]
    expect(lengthBatches(texts, 2)).toEqual([[1, 3], [0, 2], [4]]);
    // 3 texts of 7 tokens pad to 21 > 20: two batches.
    expect(lengthBatches(["a b c d e", "a b c d e", "a b c d e"], 32, 20)).toEqual([[0, 1], [2]]);
  });

  it("cross-encoder scores pairs on the same machinery; --rerank orders the top files by them", async () => {
    const reranker = new LocalReranker({ model: cross, locate: async () => cross, quantized: false, cacheDir: tmpdir(), threads: 1, keepAlive: "always" });
    try {
      const docs = ["shop/payments/card.py\ncharge_card", "shop/cart.py\ncart total", "docs/readme.md", "shop/pricing.py\ndiscount coupon"];
      const scores = await reranker.score("charge the declined card", docs);
      expect(scores).toHaveLength(4);
      expect(new Set(scores).size).toBeGreaterThan(1);
      // A pair's score does not depend on its batch mates.
      expect((await reranker.score("charge the declined card", [docs[2]!]))[0]).toBeCloseTo(scores[2]!, 5);
      const ranked = docs.map((d, i) => ({ path: d.split("\n")[0]!, score: 1 - i / 10, signals: {} }));
      const reordered = await rerankFiles("charge the declined card", ranked, reranker, (path) => docs.find((d) => d.startsWith(path))!);
      const expected = ranked.map((f, i) => ({ f, s: scores[i]! })).sort((x, y) => y.s - x.s).map((x) => x.f.path);
      expect(reordered.map((f) => f.path)).toEqual(expected);
    } finally {
      await reranker.close();
    }
  });

  it("reads a model card: ONNX file, pooling, BGE's query instruction", () => {
    const card = readModelCard(mean, "BAAI/bge-small-en-v1.5", false);
    expect(card.onnx).toMatch(/onnx\/model\.onnx$/);
    expect(card.queryPrefix).toMatch(/^Represent this sentence/);
    expect(readModelCard(mean, "some/other-model", false).queryPrefix).toBe("");
    expect(() => readModelCard(mean, "x/y", true)).not.toThrow(); // falls back to the float model
  });

  it("resolves settings from the environment, options first", () => {
    const s = resolveEmbeddingSettings({}, { HF_HUB_OFFLINE: "1", CTXSMITH_CACHE_DIR: "/tmp/c", CTXSMITH_KEEP_ALIVE: "5m", HF_ENDPOINT: "http://mirror/" });
    expect(s).toMatchObject({ provider: "local", model: DEFAULT_EMBED_MODEL, offline: true, cacheDir: "/tmp/c", keepAlive: 300_000, hubEndpoint: "http://mirror" });
    expect(resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "ollama", CTXSMITH_EMBED_MODEL: "nomic-embed-text" })).toMatchObject({ endpoint: "http://127.0.0.1:11434" });
    expect(resolveEmbeddingSettings({ keepAlive: 0 }, { CTXSMITH_KEEP_ALIVE: "always" }).keepAlive).toBe(0);
    expect(() => resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "cloud" })).toThrow(/local, ollama, openai, gemini, voyage or none/);
    expect(() => resolveEmbeddingSettings({}, { CTXSMITH_EMBED_PROVIDER: "openai" })).toThrow(/CTXSMITH_EMBED_MODEL/);
  });
});
