import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Piscina } from "piscina";

/**
 * Resolves a compiled worker entry, `dist/workers/<name>.js`, from wherever this module runs:
 * `dist/src/indexing/` (the library), `dist/` (the bundled CLI) or `src/indexing/` (tests).
 */
export function workerFile(name: "parse" | "git-log"): string {
  const candidates = [
    new URL(`./workers/${name}.js`, import.meta.url),
    new URL(`../../workers/${name}.js`, import.meta.url),
    new URL(`../../dist/workers/${name}.js`, import.meta.url),
  ];
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
