/** Embed worker: loads an ONNX model once per thread (per model), then embeds or scores batches. */
import { ContextSmithError } from "../src/core/errors.js";
import { OnnxEncoder } from "../src/runtime/embed/onnx-encoder.js";
import { EMBED_PROTOCOL_VERSION, type EmbedResult, type EmbedTask } from "../src/runtime/embed/protocol.js";

const encoders = new Map<string, Promise<OnnxEncoder>>();

function encoderFor(task: EmbedTask): Promise<OnnxEncoder> {
  const key = task.card.onnx;
  let encoder = encoders.get(key);
  if (!encoder) {
    encoder = OnnxEncoder.load(task.card, 1);
    encoders.set(key, encoder);
    encoder.catch(() => encoders.delete(key));
  }
  return encoder;
}

export default async function embed(task: EmbedTask): Promise<EmbedResult> {
  try {
    if (task.version !== EMBED_PROTOCOL_VERSION) throw new ContextSmithError("WORKER_FAILED", `embed worker protocol ${EMBED_PROTOCOL_VERSION}, task ${task.version}: rebuild`);
    const encoder = await encoderFor(task);
    if (task.op === "score") return { values: await encoder.score(task.query, task.documents), dimension: 1 };
    const { vectors, dimension } = await encoder.embed(task.texts, task.kind);
    return { values: vectors, dimension };
  } catch (error) {
    throw ContextSmithError.from(error).toJSON();
  }
}
