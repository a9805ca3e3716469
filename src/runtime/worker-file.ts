import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The worker entries under `workers/` (`verify` runs as a child process, the others as threads). */
export type WorkerName = "parse" | "git-log" | "tokens" | "embed" | "index" | "verify";

/**
 * Resolves a worker entry from wherever this module runs: `dist/` (the bundled CLI), `dist/workers/`
 * (a bundled worker that starts others), `dist/src/runtime/` (the library) or `src/runtime/` (tests,
 * run from source). The bundle of the entry, `dist/workers/<name>.cjs`, comes first: one file that
 * starts in a third of the time its modules took (a parse thread loaded 60 ms of them, 23 ms
 * bundled); the compiled entry, `dist/workers/<name>.js`, where the build made no bundles.
 */
export function workerFile(name: WorkerName): string {
  const bundles = ["./workers/", "./", "../../workers/", "../../dist/workers/"].map((folder) => `${folder}${name}.cjs`);
  const compiled = ["./workers/", "../../workers/", "../../dist/workers/"].map((folder) => `${folder}${name}.js`);
  for (const candidate of [...bundles, ...compiled]) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error(`worker ${name}.js not found: run \`npm run build\``);
}
