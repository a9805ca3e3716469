import { cpSync, readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

/** What a CI job does with a cached index (docs/ci/pr-context.yml), reproduced with real git and a real index. */
describe("an index restored from a CI cache", () => {
  const made: TempRepo[] = [];
  afterEach(() => {
    for (const r of made.splice(0)) r.dispose();
  });
  const temp = (files: Record<string, string> = {}, git = false): TempRepo => {
    const r = TempRepo.create(files, { git });
    made.push(r);
    return r;
  };
  const index = (root: string, dir: string) => {
    const r = runCli(["index", root, "--index-dir", dir, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { files: Record<string, unknown>; commitsRead: number; rebuilt: boolean };
  };

  it("re-parses only what changed between the cached commit and a fresh clone's, and answers as a clean index does", () => {
    const repo = temp({
      "shop/payments.py": "def charge(card):\n    return retry(card)\n\ndef retry(card):\n    return card\n",
      "shop/cart.py": "def total(cart):\n    return sum(cart)\n",
      "shop/coupons.py": "from shop.cart import total\n\ndef apply(cart, code):\n    return total(cart) - 1\n",
      "shop/tax.py": "def tax(amount):\n    return amount * 0.2\n",
      "shop/legacy.py": "def old():\n    pass\n",
      "README.md": "# Shop\n\nCharges cards.\n",
    }, true);
    // The base branch's job: index its commit into the cache folder.
    const cache = temp();
    expect(index(repo.root, cache.path("index"))).toMatchObject({ files: { parsed: 6 } });

    // The pull request: one file edited, one added, one removed.
    repo.write({
      "shop/payments.py": "def charge(card, attempts=3):\n    return retry(card, attempts)\n\ndef retry(card, attempts):\n    return card\n",
      "shop/refunds.py": "from shop.payments import charge\n\ndef refund(card):\n    return charge(card, 1)\n",
    });
    repo.remove("shop/legacy.py");
    repo.commitAll("retry a declined card");

    // The PR's job: a fresh clone (every mtime new), the cache restored under another path.
    const runner = temp();
    repo.git("clone", "-q", `file://${repo.root}`, runner.path("checkout"));
    const clone = runner.path("checkout");
    cpSync(cache.path("index"), runner.path("restored"), { recursive: true });
    const restored = index(clone, runner.path("restored"));
    // Content hashes tell the four unchanged files (all touched: read and hashed, their new mtimes
    // stored) from the two changed ones; history is brought forward by the one new commit.
    expect(restored).toMatchObject({ files: { seen: 6, parsed: 2, unchanged: 4, touched: 4, removed: 1 }, commitsRead: 1, rebuilt: false });

    // The same answers as a clean index of the clone.
    const clean = runner.path("clean");
    expect(index(clone, clean)).toMatchObject({ files: { parsed: 6 } });
    for (const args of [
      ["context", "charge retries a declined card with attempts", "--budget", "600", "--json"],
      ["callers", "charge", "--json"],
      ["symbol", "tax", "--json"],
      ["review", "--base", "HEAD~1", "--budget", "600", "--json"],
    ]) {
      const a = runCli([...args, "--path", clone, "--index-dir", runner.path("restored"), "--no-refresh"]);
      const b = runCli([...args, "--path", clone, "--index-dir", clean, "--no-refresh"]);
      expect(a.status, a.stderr).toBe(0);
      expect(b.status, b.stderr).toBe(0);
      expect(a.stdout.length).toBeGreaterThan(20);
      expect(a.stdout, args.join(" ")).toBe(b.stdout);
    }
    // The removed file's definitions are gone from the restored index, as they never were in the clean one.
    const gone = runCli(["symbol", "old", "--path", clone, "--index-dir", runner.path("restored"), "--no-refresh"]);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toBe(runCli(["symbol", "old", "--path", clone, "--index-dir", clean, "--no-refresh"]).stderr);
    // Nothing in the index names a machine's paths (the repository's, the checkout's, the index
    // folder's own): it moves between runners, checkouts and folders.
    for (const dir of [cache.path("index"), runner.path("restored")]) {
      for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const bytes = readFileSync(`${entry.parentPath}/${entry.name}`);
        for (const path of [repo.root, clone, cache.root, runner.root]) expect(bytes.includes(path), `${entry.name} holds ${path}`).toBe(false);
      }
    }
  });
});
