import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { TempRepo } from "../helpers/repo.js";
import { SHOP_FILES } from "../helpers/shop.js";

describe("Engine queries", () => {
  let repo: TempRepo | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    repo?.dispose();
  });

  const open = (): Engine => {
    repo = TempRepo.create(SHOP_FILES, { git: false });
    return (engine = new Engine(repo.root, { jobs: 1, git: false }));
  };

  it("never shows a file replaced by a link out of the repository, nor a file changed since it was indexed", async () => {
    const e = open();
    await e.index();
    const outside = mkdtempSync(join(tmpdir(), "ctxsmith-outside-"));
    try {
      writeFileSync(join(outside, "passwd"), "root:x:0:0:TOP-SECRET-LINE:/root:/bin/bash\n");
      // As an MCP server between two refreshes would see them: the index still lists both files.
      rmSync(repo!.path("shop/payments/retry.py"));
      symlinkSync(join(outside, "passwd"), repo!.path("shop/payments/retry.py"));
      repo!.write({ "shop/payments/card.py": `# moved down\n\n\n${SHOP_FILES["shop/payments/card.py"]}` });
      const linked = await e.context("retry policy for declined cards RetryPolicy next_delay", { refresh: false, budget: 4000 });
      expect(linked.text).not.toContain("TOP-SECRET-LINE");
      expect(linked.files).not.toContain("shop/payments/retry.py");
      // A changed file is left out rather than shown under the old line numbers.
      const changed = await e.context("charge_card gateway_charge", { refresh: false, budget: 4000 });
      expect(changed.files).not.toContain("shop/payments/card.py");
      // After a refresh the link is not indexed and the edit is shown where it now is.
      const fresh = await e.context("charge_card gateway_charge", { budget: 4000 });
      expect(fresh.text).not.toContain("TOP-SECRET-LINE");
      expect(fresh.text).toContain("6|def charge_card(card, amount):");
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("shows a piece of a small file whose whole does not fit the budget", async () => {
    const steps = Array.from({ length: 40 }, (_, i) => `        # step ${i}: split the groups by their labels\n        total_${i} = sum(len(g) for g in groups if g.labels)`);
    const lines = [
      "class GroupBy:",
      "    def quantile(self, q, groups):",
      ...steps,
      "        return total_0",
      "",
      "    def retry_policy(self, attempts):",
      '        """How many attempts a retry policy allows."""',
      "        return min(attempts, 3)",
      "",
    ];
    // Under the 120 lines of a file shown whole, but more than 500 tokens.
    expect(lines.join("\n").split("\n").length).toBeLessThan(120);
    repo = TempRepo.create({ "groupby.py": lines.join("\n") }, { git: false });
    engine = new Engine(repo.root, { jobs: 1, git: false });
    const small = await engine.context("retry policy attempts", { budget: 500 });
    expect(small.text).toContain("def retry_policy(self, attempts):");
    expect(small.tokens).toBeLessThanOrEqual(500);
    // With room for all of it, the file is shown whole.
    const roomy = await engine.context("retry policy attempts", { budget: 4000 });
    expect(roomy.spans).toEqual([expect.objectContaining({ path: "groupby.py", kind: "file", start: 1 })]);
  });

  it("builds the index on the first query, with progress", async () => {
    const e = open();
    const stages = new Set<string>();
    const { files } = await e.rank("retry policy for declined cards", { onProgress: (p) => stages.add(p.stage) });
    expect(files[0]!.path).toBe("shop/payments/retry.py");
    expect(stages).toContain("parse");
  });

  it("sees an edit made after the last query (always fresh)", async () => {
    const e = open();
    expect((await e.rank("refund_order")).files).toEqual([]);
    repo!.write({ "shop/refunds.py": "def refund_order(order):\n    return order.total\n" });
    const { files } = await e.rank("refund_order");
    expect(files[0]!.path).toBe("shop/refunds.py");
    const { spans } = await e.context("refund_order", { budget: 500 });
    expect(spans[0]).toMatchObject({ path: "shop/refunds.py", start: 1, end: 2 });
  });

  it("with refresh: false reads the index as it is, and says when there is none", async () => {
    const e = open();
    await expect(e.rank("cart", { refresh: false })).rejects.toMatchObject({ code: "NO_INDEX" });
    await e.index();
    repo!.write({ "shop/refunds.py": "def refund_order(order):\n    return order.total\n" });
    expect((await e.rank("refund_order", { refresh: false })).files).toEqual([]);
  });

  it("hears a cancellation that came while it refreshed or ranked, and answers nothing", async () => {
    const e = open();
    for (const query of [(o: object) => e.context("retry policy", o), (o: object) => e.rank("retry policy", o)]) {
      const abort = new AbortController();
      // The refresh is done when the signal comes: the query must not go on to print an answer.
      const onProgress = (p: { stage: string }): void => void (p.stage === "done" && abort.abort());
      await expect(query({ signal: abort.signal, onProgress })).rejects.toMatchObject({ code: "ABORTED" });
      repo!.write({ "shop/touched.py": `x = ${Math.random()}\n` });
    }
  });

  it("answers concurrent queries with one refresh", async () => {
    const e = open();
    let walks = 0;
    const onProgress = (p: { stage: string }) => void (p.stage === "walk" && walks++);
    const results = await Promise.all([
      e.context("add an item to the cart", { budget: 300, onProgress }),
      e.rank("add an item to the cart", { onProgress }),
      e.search("add item", { onProgress }),
    ]);
    expect(walks).toBe(1);
    expect(results[0].files[0]).toBe("shop/cart.py");
    expect(results[1].files[0]!.path).toBe("shop/cart.py");
    expect(results[2][0]).toMatchObject({ path: "shop/cart.py", qualifiedName: "Cart.add_item", kind: "method", line: 7, endLine: 8, signature: "def add_item(self, item, quantity)" });
  });

  it("rank limits its list and reports each signal's rank, score and evidence", async () => {
    const e = open();
    const { files } = await e.rank("shop.payments.card charge the card", { limit: 2 });
    expect(files).toHaveLength(2);
    expect(files[0]!.path).toBe("shop/payments/card.py");
    expect(files[0]!.signals.references).toEqual({ rank: 1, score: expect.any(Number), evidence: "module shop.payments.card" });
    expect(files[0]!.signals.lexical?.rank).toBeGreaterThan(0);
  });

  it("demotes the repository's tests for a task whose test paths name none of them (a user's repro file), not for one that names them", async () => {
    const e = open();
    const score = (files: Array<{ path: string; score: number }>, path: string): number => files.find((f) => f.path === path)?.score ?? 0;
    const repro = await e.rank("Running `pytest test_repro.py`: checkout of a cart with an apple item returns 0", { limit: 10 });
    const named = await e.rank("tests/test_cart.py: checkout of a cart with an apple item returns 0", { limit: 10 });
    const paths = repro.files.map((f) => f.path);
    expect(paths.indexOf("shop/cart.py")).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf("shop/cart.py")).toBeLessThan(paths.indexOf("tests/test_cart.py"));
    // Written, the repository's own test file is not demoted.
    expect(score(named.files, "tests/test_cart.py") / score(named.files, "shop/cart.py")).toBeGreaterThan(score(repro.files, "tests/test_cart.py") / score(repro.files, "shop/cart.py"));
    // A test file the task names that appears later: read again once the index has it.
    const later = "tests/test_apple.py: checkout of a cart with an apple item returns 0";
    const before = await e.rank(later, { limit: 10 });
    writeFileSync(join(repo!.root, "tests/test_apple.py"), "def test_apple():\n    pass\n");
    const after = await e.rank(later, { limit: 10 });
    expect(score(after.files, "tests/test_cart.py") / score(after.files, "shop/cart.py")).toBeGreaterThan(score(before.files, "tests/test_cart.py") / score(before.files, "shop/cart.py"));
  });

  it("rejects a budget that is not a positive whole number", async () => {
    const e = open();
    await expect(e.context("cart", { budget: 0 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(e.context("cart", { budget: 10.5 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("counts with the configured encoding, and rejects an unknown one", async () => {
    const e = open();
    const o200k = await e.context("cart checkout", { budget: 200, ranking: { pack: { encoding: "o200k_base" } } });
    expect(o200k.tokens).toBeLessThanOrEqual(200);
    await expect(e.context("cart", { ranking: { pack: { encoding: "no_such_encoding" } } })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
