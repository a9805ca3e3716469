import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { locateModel, modelCacheDir } from "../../../src/runtime/embed/model-store.js";
import type { DownloadProgress } from "../../../src/runtime/embed/types.js";
import { Engine } from "../../../src/engine.js";
import type { ProgressEvent } from "../../../src/core/types.js";
import { shopRepo } from "../../helpers/shop.js";
import { tinyModel } from "./models.js";

/** A local stand-in for the Hugging Face hub: LFS files answer with a redirect carrying their SHA-256 and size. */
class FakeHub {
  readonly requests: Array<{ url: string; range: string | undefined }> = [];
  /** Cut the next CDN answer of this file after half its bytes. */
  cutOnce = new Set<string>();
  /** Announce a wrong SHA-256 for these files. */
  lie = new Set<string>();
  #server!: Server;
  readonly files = new Map<string, Buffer>();

  constructor(repo: string, dir: string) {
    const walk = (d: string): void => {
      for (const name of readdirSync(d, { withFileTypes: true })) {
        const abs = join(d, name.name);
        if (name.isDirectory()) walk(abs);
        else this.files.set(`${repo}/${relative(dir, abs)}`, readFileSync(abs));
      }
    };
    walk(dir);
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => this.#answer(req, res));
    await new Promise<void>((r) => this.#server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((r) => this.#server.close(() => r()));
  }

  #answer(req: IncomingMessage, res: ServerResponse): void {
    const url = decodeURIComponent(req.url ?? "");
    this.requests.push({ url, range: req.headers.range });
    const resolve = /^\/(.+?\/.+?)\/resolve\/main\/(.+)$/.exec(url);
    if (resolve) {
      const key = `${resolve[1]}/${resolve[2]}`;
      const body = this.files.get(key);
      if (!body) return void res.writeHead(404).end("Entry not found");
      if (!key.endsWith(".onnx")) return void res.writeHead(200, { etag: `"${"a".repeat(40)}"`, "content-length": body.length }).end(body);
      const sha = createHash("sha256").update(this.lie.has(key) ? "something else" : body).digest("hex");
      return void res.writeHead(302, { location: `/cdn/${key}`, "x-linked-etag": `"${sha}"`, "x-linked-size": String(body.length) }).end();
    }
    const key = url.replace(/^\/cdn\//, "");
    const body = this.files.get(key);
    if (!body) return void res.writeHead(404).end();
    const start = Number(/bytes=(\d+)-/.exec(req.headers.range ?? "")?.[1] ?? 0);
    const part = body.subarray(start);
    res.writeHead(start > 0 ? 206 : 200, { "content-length": part.length, ...(start > 0 ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}) });
    if (this.cutOnce.delete(key)) {
      // A half-close (FIN), as a dropped connection looks to the client once the bytes sent arrived.
      res.write(part.subarray(0, Math.floor(part.length / 2)), () => setTimeout(() => res.socket?.end(), 20));
      return;
    }
    res.end(part);
  }
}

describe("model download from the hub (local stand-in)", () => {
  const source = tinyModel();
  const repo = "test-org/tiny-bert";
  const hub = new FakeHub(repo, source);
  let endpoint: string;
  let cacheDir: string;
  beforeAll(async () => {
    endpoint = await hub.start();
  });
  afterAll(async () => {
    await hub.stop();
    rmSync(source, { recursive: true, force: true });
  });
  afterEach(() => {
    rmSync(cacheDir, { recursive: true, force: true });
    hub.requests.length = 0;
  });
  const options = (extra: { offline?: boolean; onProgress?: (p: DownloadProgress) => void } = {}) => ({ cacheDir, offline: false, hubEndpoint: endpoint, quantized: false, ...extra });
  /** Each test starts from an empty model cache. */
  const fresh = () => {
    cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-models-"));
  };

  it("downloads the model's files with progress, checks the SHA-256, and never asks again", async () => {
    fresh();
    const progress: DownloadProgress[] = [];
    const dir = await locateModel(repo, options({ onProgress: (p) => progress.push(p) }));
    expect(dir).toBe(modelCacheDir(cacheDir, repo));
    for (const file of ["onnx/model.onnx", "tokenizer.json", "vocab.txt", "config.json", "1_Pooling/config.json"]) {
      if (file === "vocab.txt") continue; // tokenizer.json was found first
      expect(readFileSync(join(dir, file))).toEqual(hub.files.get(`${repo}/${file}`));
    }
    const onnx = progress.filter((p) => p.file === "onnx/model.onnx");
    expect(onnx.at(-1)).toMatchObject({ received: hub.files.get(`${repo}/onnx/model.onnx`)!.length, total: hub.files.get(`${repo}/onnx/model.onnx`)!.length });
    expect(hub.requests.some((r) => r.url.endsWith("tokenizer_config.json"))).toBe(true); // optional, 404, fine
    const asked = hub.requests.length;
    expect(await locateModel(repo, options())).toBe(dir);
    expect(hub.requests.length).toBe(asked);
  });

  it("resumes an interrupted download from its .part file", async () => {
    fresh();
    hub.cutOnce.add(`${repo}/onnx/model.onnx`);
    await expect(locateModel(repo, options())).rejects.toThrow(/interrupted|ended after/);
    const part = join(modelCacheDir(cacheDir, repo), "onnx", "model.onnx.part");
    const had = statSync(part).size;
    expect(had).toBeGreaterThan(0);
    const dir = await locateModel(repo, options());
    const ranged = hub.requests.filter((r) => r.url.startsWith("/cdn/") && r.range);
    expect(ranged.at(-1)?.range).toBe(`bytes=${had}-`);
    expect(readFileSync(join(dir, "onnx", "model.onnx"))).toEqual(hub.files.get(`${repo}/onnx/model.onnx`));
    expect(existsSync(part)).toBe(false);
  });

  it("refuses a download whose SHA-256 differs from the hub's, and deletes it", async () => {
    fresh();
    hub.lie.add(`${repo}/onnx/model.onnx`);
    try {
      await expect(locateModel(repo, options())).rejects.toThrow(/damaged \(SHA-256/);
      const dir = modelCacheDir(cacheDir, repo);
      expect(existsSync(join(dir, "onnx", "model.onnx"))).toBe(false);
      expect(existsSync(join(dir, "onnx", "model.onnx.part"))).toBe(false);
      expect(existsSync(join(dir, ".complete"))).toBe(false);
    } finally {
      hub.lie.clear();
    }
  });

  it("offline, never touches the network and says how to bring the model", async () => {
    fresh();
    await expect(locateModel(repo, options({ offline: true }))).rejects.toThrow(/not in the cache .* offline mode is on. Copy the folder/);
    expect(hub.requests).toEqual([]);
    // A copied cache folder (the air-gapped recipe) works offline.
    await locateModel(repo, options());
    hub.requests.length = 0;
    await expect(locateModel(repo, options({ offline: true }))).resolves.toBe(modelCacheDir(cacheDir, repo));
    expect(hub.requests).toEqual([]);
  });

  it("a hub that never answers times out instead of hanging the run", async () => {
    fresh();
    const silent = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const hubEndpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      await expect(locateModel(repo, { ...options(), hubEndpoint, connectTimeoutMs: 200 })).rejects.toThrow(/Cannot download .*no answer in 0\.2 s/);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it("a hub that cannot be reached is not asked again for a while; another hub is, and a download clears that", async () => {
    fresh();
    const refusing = createServer((_req, res) => res.socket?.destroy()); // drops every connection
    await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", r));
    let connections = 0;
    refusing.on("connection", () => connections++);
    const marker = join(modelCacheDir(cacheDir, repo), ".unreachable");
    try {
      const hubEndpoint = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      await expect(locateModel(repo, { ...options(), hubEndpoint })).rejects.toThrow(/^Cannot download /);
      const tried = connections;
      expect(tried).toBeGreaterThan(0);
      expect(existsSync(marker)).toBe(true);
      // The next run answers at once with the same reason, and says when and how to try again.
      await expect(locateModel(repo, { ...options(), hubEndpoint })).rejects.toThrow(/^Cannot download .* Not asked again for 15 min: delete .*\.unreachable to try now\.$/);
      expect(connections).toBe(tried);
      // A marker dated in the future (a clock set back) holds nothing back.
      const saved = JSON.parse(readFileSync(marker, "utf8")) as { at: number };
      writeFileSync(marker, JSON.stringify({ ...saved, at: Date.now() + 24 * 3600_000 }));
      await expect(locateModel(repo, { ...options(), hubEndpoint })).rejects.toThrow(/^Cannot download .*\.$/);
      expect(connections).toBeGreaterThan(tried);
      // Another hub (a mirror set after the failure) is asked at once and brings the model.
      await expect(locateModel(repo, options())).resolves.toBe(modelCacheDir(cacheDir, repo));
      expect(existsSync(marker)).toBe(false);
    } finally {
      refusing.closeAllConnections();
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });

  it("a repository without an ONNX export is a clear error; a folder path is used as it is", async () => {
    fresh();
    await expect(locateModel("test-org/no-such-model", options())).rejects.toThrow(/has none of .*tokenizer\.json/);
    await expect(locateModel(source, options({ offline: true }))).resolves.toBe(source);
    await expect(locateModel("/no/such/folder", options())).rejects.toThrow(/does not exist/);
  });

  it("index downloads the configured model on first use, with progress events, then embeds", async () => {
    fresh();
    const shop = shopRepo();
    const events: ProgressEvent[] = [];
    const engine = new Engine(shop.root, { jobs: 1, git: false, embedding: { model: repo, hubEndpoint: endpoint, cacheDir, offline: false } });
    try {
      const stats = await engine.index({ onProgress: (e) => events.push(e) });
      expect(stats.semantic).toMatchObject({ on: true, model: `local ${repo}` });
      expect(events.some((e) => e.stage === "download" && e.file === "onnx/model.onnx")).toBe(true);
      expect(events.some((e) => e.stage === "embed")).toBe(true);
    } finally {
      await engine.close();
      shop.dispose();
    }
  });
});
