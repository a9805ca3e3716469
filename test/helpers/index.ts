import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine, type EngineOptions } from "../../src/engine.js";
import type { IndexStats } from "../../src/core/types.js";
import { dumpIndex } from "./dump.js";

/** One index run with a fresh engine, closed afterwards (single worker, no git unless asked). */
export async function indexOnce(root: string, options: EngineOptions = {}): Promise<IndexStats> {
  const engine = new Engine(root, { jobs: 1, git: false, ...options });
  try {
    return await engine.index();
  } finally {
    await engine.close();
  }
}

/** Indexes `root` with a fresh engine, hands the engine to `fn`, and closes it. */
export async function withIndexedEngine(
  root: string,
  options: EngineOptions,
  fn: (engine: Engine) => void | Promise<void>,
): Promise<void> {
  const engine = new Engine(root, { jobs: 1, ...options });
  try {
    await engine.index();
    await fn(engine);
  } finally {
    await engine.close();
  }
}

/** The dump of a clean, uninterrupted index of `root`, built in a temp folder outside it. */
export async function cleanIndexDump(root: string): Promise<unknown> {
  const dir = mkdtempSync(join(tmpdir(), "ctxsmith-clean-"));
  try {
    await indexOnce(root, { jobs: 2, git: true, indexDir: join(dir, "index") });
    return await dumpIndex(join(dir, "index"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
