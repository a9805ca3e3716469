import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { initialMapSize } from "../../src/store/map-size.js";
import { VectorCache } from "../../src/store/vector-cache.js";
import { mapsOf } from "../helpers/maps.js";

describe("the LMDB map size", () => {
  it("maps a file once on 64-bit platforms but Windows, and lets lmdb-js grow the map on Windows and 32-bit", () => {
    expect(initialMapSize("linux", "x64")).toBe(4 * 1024 ** 3);
    expect(initialMapSize("darwin", "arm64")).toBe(4 * 1024 ** 3);
    expect(initialMapSize("win32", "x64")).toBeUndefined();
    expect(initialMapSize("linux", "ia32")).toBeUndefined();
    expect(initialMapSize("linux", "arm")).toBeUndefined();
  });

  it.runIf(process.platform === "linux" && process.arch.endsWith("64"))("holds one map of a grown vector cache", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxsmith-vectors-"));
    const cache = VectorCache.open(dir)!;
    try {
      // 2,000 vectors of 384 dimensions (about 1.5 MB): lmdb-js's 128 KB map would have doubled several times.
      await cache.putAll("model", Array.from({ length: 2000 }, (_, i) => [`h${i}`, new Float32Array(384).fill(i / 2000)] as [string, Float32Array]));
      const file = join(dir, "vectors.lmdb");
      expect(statSync(file).size).toBeGreaterThan(1024 * 1024);
      expect(mapsOf(file)).toBe(1);
      expect(cache.get("model", "h1999")?.length).toBe(384);
    } finally {
      await cache.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
