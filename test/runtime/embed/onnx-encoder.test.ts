import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { OnnxEncoder } from "../../../src/runtime/embed/onnx-encoder.js";
import { readModelCard } from "../../../src/runtime/embed/model-dir.js";
import { tinyModel } from "./models.js";

const dir = tinyModel();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("OnnxEncoder", () => {
  it("embeds with onnxruntime-node, and says what to install where the optional dependency is missing", async () => {
    const card = readModelCard(dir, "tiny", false);
    const encoder = await OnnxEncoder.load(card);
    const { dimension } = await encoder.embed(["charge card"], "document");
    expect(dimension).toBe(32);
    // What a machine where npm left the optional dependency out meets.
    const missing = () => Promise.reject(Object.assign(new Error("Cannot find package 'onnxruntime-node' imported from /x/onnx-encoder.js\nDid you mean …"), { code: "ERR_MODULE_NOT_FOUND" }));
    await expect(OnnxEncoder.load(card, 1, missing)).rejects.toMatchObject({
      code: "WORKER_FAILED",
      message: expect.stringMatching(/^onnxruntime-node cannot load \(Cannot find package 'onnxruntime-node' imported from \/x\/onnx-encoder\.js\): local embeddings and --rerank are off, search is lexical\. Install it beside contextsmith/),
    });
  });
});
