import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { dumpIndex } from "../helpers/dump.js";
import { cleanIndexDump } from "../helpers/index.js";
import type { TempRepo } from "../helpers/repo.js";
import { syntheticRepo } from "../helpers/synthetic.js";

describe("cancellation", () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = syntheticRepo(300);
  });
  afterAll(() => repo.dispose());

  it("stops at an abort signal with ABORTED, keeps what was committed, and the next run completes", async () => {
    const abort = new AbortController();
    const engine = new Engine(repo.root, { jobs: 2 });
    let committed = 0;
    try {
      await expect(
        engine.index({
          signal: abort.signal,
          onProgress: (e) => {
            if (e.stage === "parse") {
              committed = e.done;
              abort.abort();
            }
          },
        }),
      ).rejects.toMatchObject({ code: "ABORTED" });
      expect(committed).toBeGreaterThan(0);
      const partial = engine.status()!.totals.files;
      expect(partial).toBeGreaterThanOrEqual(committed);
      expect(partial).toBeLessThan(300);
      const resumed = await engine.index();
      expect(resumed.files.parsed).toBe(300 - partial);
    } finally {
      await engine.close();
    }
    expect(await dumpIndex(`${repo.root}/.contextsmith`)).toEqual(await cleanIndexDump(repo.root));
  });
});
