import type { Piscina } from "piscina";
import { workerFile } from "../worker-file.js";

/**
 * A pool of `threads` workers running `workers/<name>.js`. piscina is imported on first use:
 * a run with nothing to parse never loads it.
 */
export async function createPool(name: "parse" | "git-log" | "embed", threads: number): Promise<Piscina> {
  const { Piscina } = await import("piscina");
  return new Piscina({
    filename: workerFile(name),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 1000,
    // Workers must return to the event loop between tasks so that tree-sitter's N-API
    // finalizers run (see parse/native-memory.ts); the Atomics wait loop never does.
    atomics: "disabled",
  });
}
