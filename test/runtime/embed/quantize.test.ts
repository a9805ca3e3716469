import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import onnxProto from "onnx-proto";
import { afterAll, describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../src/runtime/embed/local.js";
import { tinyModel } from "./models.js";

const model = tinyModel();
const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
afterAll(() => {
  rmSync(model, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

const embedder = (quantized: boolean) => new LocalEmbedder({ model, locate: async () => model, quantized, cacheDir, threads: 1, keepAlive: 0 });
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
const TEXTS = ["charge the declined card", "retry policy next delay", "cart total with a discount coupon", "render checkout"];

describe("int8 quantization of a float32 model (CTXSMITH_EMBED_QUANTIZED with a model that has no int8 file)", () => {
  it("quantizes every weight matrix once, caches the file, and keeps the vectors close to float32's", async () => {
    const fp32 = embedder(false);
    const int8 = embedder(true);
    try {
      const [a, b] = [await fp32.embed(TEXTS, "document"), await int8.embed(TEXTS, "document")];
      for (let i = 0; i < TEXTS.length; i++) expect(cosine(a[i]!, b[i]!)).toBeGreaterThan(0.98);
      // Another space for the index: the key says int8.
      const [pa, pb] = [await fp32.provenance(), await int8.provenance()];
      expect(pb.key).not.toBe(pa.key);
      expect(pb.key).toMatch(/-q8:mean$/);

      const files = readdirSync(join(cacheDir, "quantized"));
      expect(files).toHaveLength(1);
      const { onnx } = onnxProto;
      const graph = onnx.ModelProto.decode(readFileSync(join(cacheDir, "quantized", files[0]!))).graph!;
      const [nodes, initializers] = [graph.node ?? [], graph.initializer ?? []];
      const weights = new Set(initializers.map((t) => t.name));
      // 2 layers × (Q, K, V, output, up, down) = 12 weight matrices, none left as float MatMul.
      expect(nodes.filter((n) => n.opType === "MatMulInteger")).toHaveLength(12);
      expect(nodes.filter((n) => n.opType === "MatMul" && weights.has(n.input?.[1]))).toHaveLength(0);
      expect(initializers.filter((t) => t.dataType === onnx.TensorProto.DataType.INT8 && t.dims?.length === 2)).toHaveLength(12);

      // A second embedder reuses the quantized file.
      const before = statSync(join(cacheDir, "quantized", files[0]!)).mtimeMs;
      const again = embedder(true);
      await again.embed(["card"], "document");
      await again.close();
      expect(statSync(join(cacheDir, "quantized", files[0]!)).mtimeMs).toBe(before);
    } finally {
      await fp32.close();
      await int8.close();
    }
  });
});
