import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/runtime.js";
import { Workspace } from "../../src/workspace/workspace.js";
import { shopRepo } from "../helpers/shop.js";
import { tinyModel } from "../runtime/embed/models.js";

describe("a change of embedding model across the workspace", () => {
  const before = tinyModel();
  const after = tinyModel({ seed: 9 });
  const cacheDir = mkdtempSync(join(tmpdir(), "ctxsmith-cache-"));
  const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-"));
  const repos = [shopRepo(), shopRepo()];
  afterAll(() => {
    for (const dir of [before, after, cacheDir, dataDir]) rmSync(dir, { recursive: true, force: true });
    repos.forEach((r) => r.dispose());
  });

  const open = (model: string, runtime: Runtime) => new Workspace({ dataDir, runtime, checkEveryMs: 3_600_000, engine: { jobs: 1, git: false, embedding: { model, cacheDir, offline: true } } });
  const skipped = (notices: readonly string[] | undefined) => (notices ?? []).filter((n) => n.includes("semantic signal skipped")).map((n) => n.split(":")[0]);

  it("re-embeds one repository after another; meanwhile a search skips the semantic signal of those not done, with a notice", async () => {
    const runtime = new Runtime();
    try {
      const first = open(before, runtime);
      await first.addRepo("one", repos[0]!.root);
      await first.addRepo("two", repos[1]!.root);
      const task = "charge the declined card again";
      expect(skipped((await first.rank(task, { all: true })).notices)).toEqual([]);
      expect((await first.rank(task, { all: true })).files[0]!.signals.semantic).toBeDefined();
      await first.close();

      // The configured model changes: the indexes still hold the vectors of the old one.
      const second = open(after, runtime);
      expect(skipped((await second.rank(task, { all: true }, { refresh: false })).notices)).toEqual(["one", "two"]);
      expect(second.models().repos.map((r) => r.vectorsOf)).toEqual([expect.stringContaining(before), expect.stringContaining(before)]);

      const [synced] = await second.sync(["one"]);
      expect(synced).toMatchObject({ repo: "one", ok: true });
      const midway = await second.rank(task, { all: true }, { refresh: false });
      expect(skipped(midway.notices)).toEqual(["two"]);
      expect(midway.files.filter((f) => f.repo === "one").some((f) => f.signals.semantic)).toBe(true);
      expect(midway.files.filter((f) => f.repo === "two").some((f) => f.signals.semantic)).toBe(false);

      await second.sync(["two"]);
      expect(skipped((await second.rank(task, { all: true }, { refresh: false })).notices)).toEqual([]);
      expect(second.models().repos.map((r) => r.vectorsOf)).toEqual([expect.stringContaining(after), expect.stringContaining(after)]);
      await second.close();
    } finally {
      await runtime.close();
    }
  });
});
