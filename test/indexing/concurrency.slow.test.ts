import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { startCli, type CliResult } from "../helpers/cli.js";
import { dumpIndex } from "../helpers/dump.js";
import { cleanIndexDump } from "../helpers/index.js";
import type { TempRepo } from "../helpers/repo.js";
import { syntheticRepo } from "../helpers/synthetic.js";
import { storeOf } from "../helpers/store.js";

describe("concurrent use", () => {
  let repo: TempRepo;
  let clean: unknown;

  beforeAll(async () => {
    repo = syntheticRepo(600);
    clean = await cleanIndexDump(repo.root);
  });
  afterAll(() => repo.dispose());

  it("serialises two index runs: the second waits, both succeed, the index is right", async () => {
    rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
    const waited: string[] = [];
    const watch = (line: string) => {
      if (line.includes('"stage":"lock"')) waited.push(line);
    };
    // B starts once A is committing batches, so A surely holds the lock when B asks for it.
    let b: ReturnType<typeof startCli> | undefined;
    let aDone: Promise<CliResult> | undefined;
    const startedB = new Promise<void>((resolve) => {
      const a = startCli(["index", repo.root, "--progress", "json", "--json"], (line) => {
        watch(line);
        if (!b && line.includes('"stage":"parse"')) {
          b = startCli(["index", repo.root, "--progress", "json", "--json"], watch);
          resolve();
        }
      });
      aDone = a.done;
    });
    await startedB;
    const [ra, rb] = await Promise.all([aDone!, b!.done]);
    expect(ra.status, ra.stderr).toBe(0);
    expect(rb.status, rb.stderr).toBe(0);
    expect(waited.length).toBe(1);
    // The one that waited found the work done.
    const parsed = [JSON.parse(ra.stdout).files.parsed, JSON.parse(rb.stdout).files.parsed].sort((x, y) => x - y);
    expect(parsed).toEqual([0, 600]);
    expect(await dumpIndex(join(repo.root, ".contextsmith"))).toEqual(clean);
  });

  it("lets a reader see a consistent index while another process writes it", async () => {
    rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
    // A first, small commit so there is an index to read from the start.
    const seed = startCli(["index", repo.root, "--quiet"]);
    expect((await seed.done).status).toBe(0);
    rmSync(join(repo.root, ".contextsmith", "index.lmdb"));
    rmSync(join(repo.root, ".contextsmith", "index.lmdb-lock"), { force: true });

    let running = true;
    const writer = startCli(["index", repo.root, "--quiet"]);
    void writer.done.then(() => (running = false));
    const reader = new Engine(repo.root);
    let reads = 0;
    let sawPartial = false;
    try {
      while (running) {
        const store = storeOf(reader);
        if (store) {
          // One synchronous block reads one snapshot: the totals match the committed records.
          let files = 0;
          let symbols = 0;
          for (const f of store.allFiles()) {
            if (f.skipped) continue;
            files++;
            symbols += store.parse.parsed(f.path)?.symbols.length ?? 0;
          }
          const totals = store.meta().totals;
          expect({ files, symbols }).toEqual({ files: totals.files, symbols: totals.symbols });
          if (files > 0 && files < 600) sawPartial = true;
          reads++;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await reader.close();
    }
    expect((await writer.done).status).toBe(0);
    expect(reads).toBeGreaterThan(0);
    expect(sawPartial).toBe(true);
    expect(await dumpIndex(join(repo.root, ".contextsmith"))).toEqual(clean);
  });
});
