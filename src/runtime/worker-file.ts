import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The worker entries under `workers/` (`verify` runs as a child process, the others as threads). */
export type WorkerName = "parse" | "git-log" | "tokens" | "embed" | "index" | "verify";

/**
 * Resolves a compiled worker entry, `dist/workers/<name>.js`, from wherever this module runs:
 * `dist/src/runtime/` (the library), `dist/` (the bundled CLI) or `src/runtime/` (tests, run from source).
 */
export function workerFile(name: WorkerName): string {
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
