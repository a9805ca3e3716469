import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Piscina } from "piscina";

/**
 * Resolves a compiled worker entry. From `dist/src/indexing/` it is the sibling
 * `dist/workers/<name>.js`; when this module runs from source (tests), the build's copy.
 */
export function workerFile(name: "parse" | "git-log"): string {
  const candidates = [new URL(`../../workers/${name}.js`, import.meta.url), new URL(`../../dist/workers/${name}.js`, import.meta.url)];
  for (const url of candidates) {
    const path = fileURLToPath(url);
    if (existsSync(path)) return path;
  }
  throw new Error(`worker ${name}.js not found: run \`npm run build\``);
}

/**
 * A pool of `threads` workers running `workers/<name>.js`. piscina is imported on first use:
 * a run with nothing to parse never loads it.
 */
export async function createPool(name: "parse" | "git-log", threads: number): Promise<Piscina> {
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
