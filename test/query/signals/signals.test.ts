import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine.js";
import { DEFAULT_RANKING } from "../../../src/query/ranking-config.js";
import type { SignalName } from "../../../src/query/types.js";
import { shopRepo } from "../../helpers/shop.js";
import type { TempRepo } from "../../helpers/repo.js";

let repo: TempRepo;
let engine: Engine;

beforeAll(async () => {
  repo = shopRepo();
  engine = new Engine(repo.root, { jobs: 1 });
  await engine.index();
});
afterAll(async () => {
  await engine.close();
  repo.dispose();
});

/** The files one signal finds, best first (all signals off but that one). */
async function signal(name: SignalName, task: string): Promise<string[]> {
  const weights = { ...Object.fromEntries(Object.keys(DEFAULT_RANKING.weights).map((n) => [n, 0])), [name]: 1 };
  const { files } = await engine.rank(task, { refresh: false, ranking: { weights, testPenalty: 1, docPenalty: 1 } });
  return files.map((f) => f.path);
}

describe("signals", () => {
  it("references: a traceback's deepest repository frame comes first", async () => {
    const task = [
      "Traceback (most recent call last):",
      '  File "/home/u/proj/shop/cart.py", line 11, in checkout',
      "    return total_price(self.items)",
      '  File "/home/u/proj/shop/pricing.py", line 5, in total_price',
      "AttributeError: 'str' object has no attribute 'unit_price'",
    ].join("\n");
    expect((await signal("references", task)).slice(0, 2)).toEqual(["shop/pricing.py", "shop/cart.py"]);
  });

  it("innermost frame: a Python traceback's innermost project frame, ahead of what the words favour", async () => {
    const task = [
      "checkout of a cart with an item quantity fails",
      "Traceback (most recent call last):",
      '  File "/home/u/proj/shop/cart.py", line 11, in checkout',
      '  File "/home/u/proj/shop/pricing.py", line 5, in total_price',
      '  File "/usr/lib/python3.11/decimal.py", line 380, in quantize',
    ].join("\n");
    expect(await signal("innermostFrame", task)).toEqual(["shop/pricing.py"]);
    // The task's words are about the cart: without the signal cart.py ranks first.
    const without = await engine.rank(task, { refresh: false, ranking: { weights: { innermostFrame: 0 } } });
    expect(without.files[0]?.path).toBe("shop/cart.py");
    const { files } = await engine.rank(task, { refresh: false });
    expect(files[0]?.path).toBe("shop/pricing.py");
    expect(files[0]?.signals.innermostFrame?.evidence).toBe("innermost frame pricing.py:5 in total_price");
  });

  it("references: paths, dotted modules and backticked names map to their files", async () => {
    expect(await signal("references", "see shop/cart.py")).toEqual(["shop/cart.py"]);
    expect(await signal("references", "shop.payments.retry is wrong")).toEqual(["shop/payments/retry.py"]);
    expect(await signal("references", "calling `apply_discount` twice")).toEqual(["shop/pricing.py"]);
    expect(await signal("references", "RetryPolicy.next_delay never gives up")).toContain("shop/payments/retry.py");
  });

  it("symbols: a task in other words finds the file by its definitions and docstrings", async () => {
    // No file name, no identifier: "declined", "wait", "charging" are in RetryPolicy's docstring.
    expect((await signal("symbols", "how long do we wait after a declined charge?"))[0]).toBe("shop/payments/retry.py");
  });

  it("lexical: whole-file BM25 with path terms boosted", async () => {
    expect((await signal("lexical", "quantity of items in the cart"))[0]).toBe("shop/cart.py");
    // Both have "payments" in their path; retry.py has "retry" there too.
    expect(await signal("lexical", "payments retry")).toEqual(expect.arrayContaining(["shop/payments/retry.py", "docs/payments.md"]));
    expect((await signal("lexical", "checkout page"))[0]).toBe("web/checkout.ts");
  });

  it("history: files changed for similar work before", async () => {
    // "invoice" is in no file, only in commit messages touching pricing.py.
    expect(await signal("history", "the invoice amount is rounded wrong")).toEqual(["shop/pricing.py"]);
  });

  it("exact name: files defining a code-like word of the task", async () => {
    expect(await signal("exactName", "gateway_charge drops the amount")).toEqual(["shop/payments/card.py"]);
  });

  it("co-change and call graph expand from the first fusion's best files", async () => {
    const weights = { lexical: 0, symbols: 0, semantic: 0, exactName: 0, history: 0, references: 1, cochange: 0, callgraph: 1 };
    const { files } = await engine.rank("`charge_card` fails", { refresh: false, ranking: { weights } });
    const callgraph = files.find((f) => f.path === "shop/payments/retry.py")?.signals.callgraph;
    // charge_card (shop/payments/card.py) calls into the retry module, resolved through its import.
    expect(callgraph?.evidence).toContain("shop/payments/card.py calls into it");
  });

  it("centrality: the same PageRank prior whatever the task", async () => {
    const one = await signal("centrality", "declined card retry");
    expect(one.length).toBeGreaterThan(2);
    expect(await signal("centrality", "rounding of invoice totals")).toEqual(one);
  });

  it("semantic finds nothing without vectors, and the others still rank", async () => {
    expect(await signal("semantic", "declined card")).toEqual([]);
    const { files } = await engine.rank("declined card", { refresh: false });
    expect(files.length).toBeGreaterThan(0);
  });
});
