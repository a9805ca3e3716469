import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveEmbeddingSettings } from "../../src/core/embedding-settings.js";
import { Runtime } from "../../src/runtime/runtime.js";
import { tinyModel } from "./embed/models.js";

const model = tinyModel();
const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
afterAll(() => {
  rmSync(model, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

describe("the runtime's models: status and unload", () => {
  it("reports a model as loaded and busy, refuses to unload it while busy, then releases it", async () => {
    const runtime = new Runtime();
    const settings = resolveEmbeddingSettings({ provider: "local", model, cacheDir, offline: true, keepAlive: "always" });
    try {
      expect(runtime.models()).toEqual([]);
      const embedder = runtime.embedder(settings, 1)!;
      expect(runtime.models()).toEqual([{ role: "embedder", provider: "local", model, keepAlive: "always", loaded: false, active: 0 }]);

      const running = embedder.embed(Array.from({ length: 400 }, (_, i) => `charge card again ${i}`), "document");
      expect(runtime.models()[0]).toMatchObject({ active: 1 });
      await expect(runtime.unload()).rejects.toMatchObject({ code: "BUSY", message: expect.stringContaining("1 operation running") });
      expect(await running).toHaveLength(400);
      expect(runtime.models()[0]).toMatchObject({ loaded: true, active: 0 });

      const unloaded = await runtime.unload();
      expect(unloaded.map((m) => m.model)).toEqual([model]);
      expect(runtime.models()[0]).toMatchObject({ loaded: false, active: 0 });
      // Used again, it loads again.
      expect(await embedder.embed(["cart total"], "query")).toHaveLength(1);
      expect(runtime.models()[0]!.loaded).toBe(true);
      expect(await runtime.unload()).toHaveLength(1);
      expect(await runtime.unload()).toEqual([]);
      // An index run holds the model from start to end, between its batches too.
      let finish!: () => void;
      const run = embedder.hold(() => new Promise<void>((resolve) => (finish = resolve)));
      await expect(runtime.unload()).rejects.toMatchObject({ code: "BUSY" });
      finish();
      await run;
      expect(await runtime.unload()).toEqual([]);
    } finally {
      await runtime.close();
    }
  });
});
