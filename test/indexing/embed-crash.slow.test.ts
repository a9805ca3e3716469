import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProgressEvent } from "../../src/core/types.js";
import { IndexStore } from "../../src/store/store.js";
import { decodeVector } from "../../src/store/vector-codec.js";
import { tinyModel } from "../runtime/embed/models.js";
import { runCli, startCli } from "../helpers/cli.js";
import type { TempRepo } from "../helpers/repo.js";
import { syntheticRepo } from "../helpers/synthetic.js";

/** Every vector of an index by `path:name`, as bytes, and the semantic state. */
async function vectorsOf(indexDir: string): Promise<{ vectors: Map<string, string>; complete: boolean; journal: number; graph: boolean }> {
  const store = IndexStore.openForRead(indexDir)!;
  try {
    const vectors = new Map<string, string>();
    const dimension = store.meta().semantic!.provenance.dimension;
    for (const [key, value] of store.vectors.all()) value.names.forEach((name, i) => vectors.set(`${key}:${name}`, [...decodeVector(value.vectors, i, dimension)].join(",")));
    const semantic = store.meta().semantic!;
    return { vectors, complete: semantic.complete, journal: store.vectors.pendingCount(), graph: semantic.hnsw?.version === semantic.version };
  } finally {
    await store.close();
  }
}

describe("crash safety: kill -9 while embedding", () => {
  let repo: TempRepo;
  let model: string;
  let env: Record<string, string>;
  let clean: Awaited<ReturnType<typeof vectorsOf>>;

  beforeAll(async () => {
    repo = syntheticRepo(400); // ~5,000 functions: several chunks of 1,024 new summaries
    model = tinyModel();
    env = { CTXSMITH_EMBED_MODEL: model, CTXSMITH_CACHE_DIR: mkdtempSync(join(tmpdir(), "ctxsmith-cache-")) };
    const cleanDir = mkdtempSync(join(tmpdir(), "ctxsmith-clean-"));
    const r = runCli(["index", repo.root, "--index-dir", cleanDir, "--json"], { env });
    expect(r.status, r.stderr).toBe(0);
    clean = await vectorsOf(cleanDir);
    rmSync(cleanDir, { recursive: true, force: true });
  });
  afterAll(() => {
    repo.dispose();
    rmSync(model, { recursive: true, force: true });
    rmSync(env.CTXSMITH_CACHE_DIR!, { recursive: true, force: true });
  });

  it("resumes the vectors where the killed run stopped and ends equal to a clean build", async () => {
    expect(clean.vectors.size).toBeGreaterThan(3000);
    expect(clean).toMatchObject({ complete: true, journal: 0, graph: true });
    const indexDir = join(repo.root, ".contextsmith");
    // A private vector cache: the resumed run must embed what the killed one had not committed.
    const own = { ...env, CTXSMITH_CACHE_DIR: mkdtempSync(join(tmpdir(), "ctxsmith-cache-")) };
    let killed = false;
    const { done } = startCli(["index", repo.root, "--progress", "json", "--jobs", "2"], (line, child) => {
      if (killed || !line.startsWith("{")) return;
      const e = JSON.parse(line) as ProgressEvent;
      if (e.stage === "embed" && e.done < e.total) {
        killed = true;
        child.kill("SIGKILL");
      }
    }, own);
    await done;
    expect(killed).toBe(true);
    const partial = await vectorsOf(indexDir);
    expect(partial.complete).toBe(false);
    expect(partial.journal).toBeGreaterThan(0);
    expect(partial.vectors.size).toBeGreaterThan(0);
    expect(partial.vectors.size).toBeLessThan(clean.vectors.size);

    // A query meanwhile skips the semantic signal and says why.
    const query = runCli(["rank", "handler", "--path", repo.root, "--no-refresh"], { env: own });
    expect(query.status, query.stderr).toBe(0);
    expect(query.stderr).toMatch(/semantic signal skipped: the vectors of local .* are still being built/);

    const rerun = runCli(["index", repo.root, "--json", "--jobs", "2"], { env: own });
    expect(rerun.status, rerun.stderr).toBe(0);
    const stats = JSON.parse(rerun.stdout) as { semantic: { embedded: number; cached: number } };
    expect(stats.semantic.embedded + stats.semantic.cached).toBe(clean.vectors.size - partial.vectors.size);
    expect(await vectorsOf(indexDir)).toEqual(clean);
    rmSync(own.CTXSMITH_CACHE_DIR, { recursive: true, force: true });
  });
});
