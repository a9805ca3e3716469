/**
 * Index thread: runs the index runs of a serving process (see src/runtime/index-thread.ts), with
 * one set of parse threads for every repository, while the serving thread only reads.
 */
import { parentPort } from "node:worker_threads";
import { ContextSmithError } from "../src/core/errors.js";
import { runIndex } from "../src/indexing/indexer.js";
import { INDEX_PROTOCOL_VERSION, type FromIndexThread, type ToIndexThread } from "../src/runtime/index-protocol.js";
import { PortEmbedder } from "../src/runtime/index-thread.js";
import { processHeap } from "../src/runtime/native-heap.js";
import { ParsePools } from "../src/runtime/pools.js";

const port = parentPort!;
// Kept between runs: the serving thread lets this whole thread go when it is idle.
// malloc_trim covers every thread of the process: a server's index runs are trimmed here.
const pools = new ParsePools("always", processHeap());
const runs = new Map<number, { cancel: AbortController; embedder: PortEmbedder }>();
const send = (message: FromIndexThread): void => port.postMessage(message);

port.on("message", (message: ToIndexThread) => {
  switch (message.type) {
    case "run":
      void start(message);
      return;
    case "cancel":
      runs.get(message.run)?.cancel.abort();
      return;
    case "embedder":
      runs.get(message.run)?.embedder.answer(message);
      return;
  }
});

async function start({ run, version, config, semantic, wait, waitTimeoutMs }: Extract<ToIndexThread, { type: "run" }>): Promise<void> {
  const cancel = new AbortController();
  const embedder = new PortEmbedder(port, run);
  runs.set(run, { cancel, embedder });
  try {
    if (version !== INDEX_PROTOCOL_VERSION) throw new ContextSmithError("WORKER_FAILED", `index thread protocol ${INDEX_PROTOCOL_VERSION}, run ${version}: rebuild`);
    const stats = await runIndex(config, semantic ? embedder : null, pools, { wait, waitTimeoutMs, signal: cancel.signal, onProgress: (event) => send({ type: "progress", run, event }) });
    send({ type: "done", run, stats });
  } catch (error) {
    send({ type: "failed", run, error: ContextSmithError.from(error, "INTERNAL").toJSON() });
  } finally {
    runs.delete(run);
  }
}
