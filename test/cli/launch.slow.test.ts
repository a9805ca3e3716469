import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

describe("ctxsmith (the installed command) and V8's code cache", () => {
  let repo: TempRepo | undefined;
  let cache: string | undefined;
  afterEach(() => {
    repo?.dispose();
    if (cache) rmSync(cache, { recursive: true, force: true });
  });

  it("is a strict-mode bundle, as the modules it was made of were", () => {
    const bundle = readFileSync(new URL("../../dist/ctxsmith-cli.cjs", import.meta.url), "utf8");
    // A directive counts only at the very start of the code: the banner must not come before it.
    expect(bundle.startsWith("'use strict';")).toBe(true);
  });

  it("writes the cache on its first run and answers the same from it; CTXSMITH_NO_CODE_CACHE=1 keeps none", () => {
    repo = TempRepo.create({ "billing/charge.py": "def charge_card(card, amount):\n    return card.charge(amount)\n", "README.md": "# Shop\n" }, { git: true });
    const folder = mkdtempSync(join(tmpdir(), "ctxsmith-launch-"));
    cache = folder;
    const env = { CTXSMITH_CACHE_DIR: cache };
    // Indexing collects garbage on purpose (--expose-gc, turned off again): its cache is one the next run takes.
    const index = runCli(["index", repo.root], { env });
    expect(index.status, index.stderr).toBe(0);
    expect(readdirSync(join(cache, "v8"))).toEqual([expect.stringMatching(/^ctxsmith-cli\.cjs-[0-9a-f]{8}-[0-9a-z.]+-[0-9a-f]+-index\.bin$/)]);

    // A failed run writes nothing.
    const failed = runCli(["context", "charge the card", "--path", join(repo.root, "no-such-folder")], { env });
    expect(failed.status).not.toBe(0);
    expect(readdirSync(join(cache, "v8")).map((f) => f.replace(/^.*-/, ""))).toEqual(["index.bin"]);

    // Each command has its own: what `index` compiled is not what `context` runs.
    const first = runCli(["context", "charge the card", "--path", repo.root, "--json"], { env });
    expect(first.status, first.stderr).toBe(0);
    const written = readdirSync(join(cache, "v8")).sort();
    expect(written.map((f) => f.replace(/^.*-/, ""))).toEqual(["context.bin", "index.bin"]);
    const mtimes = written.map((f) => statSync(join(folder, "v8", f)).mtimeMs);
    const second = runCli(["context", "charge the card", "--path", repo.root, "--json"], { env });
    const reindex = runCli(["index", repo.root], { env });
    expect(reindex.status, reindex.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(JSON.parse(first.stdout).files).toContain("billing/charge.py");
    // Runs from the cache leave it as it is.
    expect(readdirSync(join(cache, "v8"))).toEqual(written);
    expect(written.map((f) => statSync(join(folder, "v8", f)).mtimeMs)).toEqual(mtimes);

    const off = mkdtempSync(join(tmpdir(), "ctxsmith-launch-off-"));
    try {
      const plain = runCli(["context", "charge the card", "--path", repo.root, "--json"], { env: { CTXSMITH_CACHE_DIR: off, CTXSMITH_NO_CODE_CACHE: "1" } });
      expect(plain.stdout).toBe(first.stdout);
      expect(existsSync(join(off, "v8"))).toBe(false);
    } finally {
      rmSync(off, { recursive: true, force: true });
    }
  });
});
