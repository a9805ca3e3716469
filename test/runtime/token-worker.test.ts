import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/runtime.js";
import { TokenWorker } from "../../src/runtime/token-worker.js";

describe("TokenWorker", () => {
  afterEach(() => {
    delete process.env.CTXSMITH_FAULT;
  });

  it("starts a new thread after its thread died: the count in flight fails, the next one is answered", async () => {
    process.env.CTXSMITH_FAULT = "tokens-exit"; // read by the thread when it starts
    const counter = new TokenWorker("cl100k_base");
    try {
      expect(await counter.count("hello world")).toBe(2);
      await expect(counter.count("CTXSMITH_FAULT")).rejects.toMatchObject({ code: "INTERNAL", message: "the token-count worker exited (code 3)" });
      expect(await counter.count("hello again, world")).toBe(4);
    } finally {
      await counter.close();
    }
  });

  it("settles every count on close, and refuses counts afterwards", async () => {
    const counter = new TokenWorker("cl100k_base");
    const inFlight = expect(counter.count("a text counted while the worker is closed")).rejects.toMatchObject({ code: "ABORTED" });
    await counter.close();
    await inFlight;
    await expect(counter.count("after")).rejects.toMatchObject({ code: "ABORTED" });
  });

  it("keeps the counter's tables in the runtime's cache folder, and in none when it has none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxsmith-token-cache-"));
    const cached = new Runtime({ cacheDir: dir });
    const none = new Runtime({ cacheDir: null });
    try {
      expect(await cached.tokenCounter("cl100k_base").count("hello world")).toBe(2);
      const [saved] = readdirSync(join(dir, "bpe"));
      expect(saved).toMatch(/^cl100k_base-.*\.bin$/);
      const written = statSync(join(dir, "bpe", saved!)).mtimeMs;
      // Another runtime's thread loads them (it writes nothing): the same counts.
      const again = new Runtime({ cacheDir: dir });
      expect(await again.tokenCounter("cl100k_base").count("hello again, world")).toBe(4);
      await again.close();
      expect(readdirSync(join(dir, "bpe"))).toEqual([saved]);
      expect(statSync(join(dir, "bpe", saved!)).mtimeMs).toBe(written);
      expect(await none.tokenCounter("cl100k_base").count("hello world")).toBe(2);
    } finally {
      await cached.close();
      await none.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
