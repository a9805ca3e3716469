import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OllamaEmbedder, OpenAIEmbedder } from "../../../src/runtime/embed/remote.js";
import { Engine } from "../../../src/engine.js";
import { shopRepo } from "../../helpers/shop.js";
import { storeOf } from "../../helpers/store.js";

/** A deterministic 3-dimensional "embedding" of a text: letters a–i, j–r, s–z counted. */
function fakeVector(text: string): number[] {
  const v = [0, 0, 0];
  for (const ch of text.toLowerCase()) {
    if (ch >= "a" && ch <= "i") v[0]!++;
    else if (ch >= "j" && ch <= "r") v[1]!++;
    else if (ch >= "s" && ch <= "z") v[2]!++;
  }
  return v.map((x) => x + 0.5);
}

/** Fake Ollama (`/api/embed`) and OpenAI-compatible (`/v1/embeddings`) servers in one. */
function fakeServer(log: Array<{ path: string; body: { model: string; input: string[] }; auth: string | undefined }>): Server {
  return createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      log.push({ path: req.url ?? "", body, auth: req.headers.authorization });
      if (body.model === "broken") return void res.writeHead(500).end("model crashed");
      res.setHeader("content-type", "application/json");
      if (req.url === "/api/embed") return void res.end(JSON.stringify({ model: body.model, embeddings: body.input.map(fakeVector) }));
      if (req.url === "/v1/embeddings") {
        // Answers out of order, as the API allows: `index` says which input each is.
        return void res.end(JSON.stringify({ data: body.input.map((t, index) => ({ embedding: fakeVector(t), index })).reverse() }));
      }
      res.writeHead(404).end();
    });
  });
}

describe("Ollama and OpenAI-compatible providers (against local fake servers)", () => {
  const log: Array<{ path: string; body: { model: string; input: string[] }; auth: string | undefined }> = [];
  const server = fakeServer(log);
  let endpoint: string;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("Ollama: batches of 64, unit vectors in input order, provenance from the first answer", async () => {
    log.length = 0;
    const ollama = new OllamaEmbedder({ endpoint, model: "nomic-embed-text", apiKey: null });
    const texts = Array.from({ length: 130 }, (_, i) => (i % 2 ? "abc" : "xyz"));
    const vectors = await ollama.embed(texts, "document");
    expect(vectors).toHaveLength(130);
    expect(log.filter((l) => l.path === "/api/embed").map((l) => l.body.input.length)).toEqual([64, 64, 2]);
    expect(log[0]!.body.model).toBe("nomic-embed-text");
    const expected = fakeVector("xyz");
    const n = Math.hypot(...expected);
    expect([...vectors[0]!]).toEqual(expected.map((x) => Math.fround(x / n)));
    expect(await ollama.provenance()).toEqual({ provider: "ollama", model: "nomic-embed-text", dimension: 3, pooling: "provider", key: `ollama:${endpoint}:nomic-embed-text` });
  });

  it("OpenAI-compatible: /v1/embeddings with the API key, answers put back in input order", async () => {
    log.length = 0;
    const openai = new OpenAIEmbedder({ endpoint: `${endpoint}/v1`, model: "text-embedding-3-small", apiKey: "sk-test" });
    const vectors = await openai.embed(["abc", "xyz", "jkl"], "query");
    expect(log[0]).toMatchObject({ path: "/v1/embeddings", auth: "Bearer sk-test" });
    const top = (v: Float32Array) => v.indexOf(Math.max(...v));
    expect(vectors.map(top)).toEqual([0, 2, 1]);
  });

  it("a server error or an unreachable server is a clear IO_ERROR", async () => {
    await expect(new OllamaEmbedder({ endpoint, model: "broken", apiKey: null }).embed(["x"], "document")).rejects.toThrow(/ollama embedding server \(model broken\) answered HTTP 500/);
    await expect(new OpenAIEmbedder({ endpoint: "http://127.0.0.1:9", model: "m", apiKey: null }).embed(["x"], "document")).rejects.toMatchObject({ code: "IO_ERROR", message: expect.stringMatching(/cannot be reached/) });
  });

  it("indexes and ranks through Ollama end to end", async () => {
    const repo = shopRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
    const engine = new Engine(repo.root, { jobs: 1, git: false, embedding: { provider: "ollama", endpoint, model: "nomic-embed-text", cacheDir } });
    try {
      const stats = await engine.index();
      expect(stats.semantic).toMatchObject({ on: true, model: "ollama nomic-embed-text" });
      expect(storeOf(engine)!.meta().semantic!.provenance).toMatchObject({ provider: "ollama", dimension: 3 });
      const ranked = await engine.rank("charge card", { ranking: { weights: { lexical: 0, symbols: 0, references: 0, history: 0, semantic: 1 } } });
      expect(ranked.files.length).toBeGreaterThan(0);
      expect(ranked.files[0]!.signals.semantic).toBeDefined();
    } finally {
      await engine.close();
      repo.dispose();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
