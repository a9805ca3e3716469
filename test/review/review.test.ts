import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { formatReview } from "../../src/review/format.js";
import { review } from "../../src/review/review.js";
import type { ReviewReport } from "../../src/review/types.js";
import { TempRepo } from "../helpers/repo.js";

const PAYMENTS = `def charge_card(card, amount):
    """Charge a card."""
    if card.expired:
        raise ValueError("expired")
    return amount


def refund(card, amount):
    return -amount


def receipt(amount):
    return f"paid {amount}"
`;

const FILES = {
  "shop/payments.py": PAYMENTS,
  "shop/orders.py": `from shop.payments import charge_card, refund


def place_order(card):
    return charge_card(card, 10)


def cancel(card):
    return refund(card, 5)
`,
  "shop/api.py": `from shop.orders import place_order


def checkout_view(request):
    return place_order(request.card)
`,
  "tests/test_orders.py": `from shop.orders import place_order


def test_place_order():
    assert place_order(object()) == 10
`,
  "tests/test_payments.py": `import shop.payments


def test_module_loads():
    assert shop.payments
`,
  "README.md": "# Shop\n",
};

/** The change under review: a signature change, a removal with a caller left, a body change, an added function. */
const CHANGED = PAYMENTS.replace("def charge_card(card, amount):", "def charge_card(card, amount, currency):")
  .replace(/def refund[\s\S]*?return -amount\n\n\n/, "")
  .replace('return f"paid {amount}"', 'return f"paid {amount:.2f}"') + "\n\ndef void(card):\n    return 0\n";

let repos: TempRepo[] = [];
let dirs: string[] = [];
let engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  for (const r of repos) r.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  repos = [];
  dirs = [];
  engines = [];
});

function shop(): TempRepo {
  const repo = TempRepo.create(FILES, { git: true });
  repos.push(repo);
  return repo;
}

function engineOf(root: string, options: ConstructorParameters<typeof Engine>[1] = {}): Engine {
  const engine = new Engine(root, { jobs: 1, ...options });
  engines.push(engine);
  return engine;
}

function byName(report: ReviewReport, name: string) {
  const found = report.symbols.find((s) => s.qualifiedName === name);
  if (!found) throw new Error(`${name} is not in the review: ${report.symbols.map((s) => s.qualifiedName).join(", ")}`);
  return found;
}

describe("review", () => {
  it("maps a work tree's change onto the index: changes, callers, impact, tests, dangling names", async () => {
    const repo = shop();
    repo.git("checkout", "-q", "-b", "feature");
    repo.write({ "shop/payments.py": CHANGED, "shop/new_module.py": "def fresh():\n    return 1\n" });
    const report = await review(engineOf(repo.root));

    expect(report.range.base.ref).toBe("main");
    expect(report.range.head.ref).toBeNull();
    expect(report.files.map((f) => `${f.status} ${f.path}`)).toEqual(["added shop/new_module.py", "modified shop/payments.py"]);
    expect(report.files[0]).toMatchObject({ additions: 2, deletions: 0, symbols: 1 });
    expect(report.symbols.map((s) => `${s.change} ${s.qualifiedName}`).sort()).toEqual(["added fresh", "added void", "body receipt", "removed refund", "signature charge_card"]);

    const charge = byName(report, "charge_card");
    expect(charge.previousSignature).toBe("def charge_card(card, amount)");
    expect(charge.signature).toBe("def charge_card(card, amount, currency)");
    expect(charge.callers).toEqual([{ symbol: "place_order", path: "shop/orders.py", line: 5, test: false }]);
    // place_order <- checkout_view and the test, two levels up.
    expect(charge.impact.production.sort()).toEqual(["shop/api.py", "shop/orders.py"]);
    expect(charge.impact.tests).toEqual(["tests/test_orders.py"]);
    // The symbols with the widest impact come first.
    expect(report.symbols[0]!.qualifiedName).toBe("charge_card");

    // refund is gone and defined nowhere else; orders.py still imports and calls it.
    const refund = byName(report, "refund");
    expect(refund.references?.total).toBe(2);
    expect(refund.references?.lines.map((l) => `${l.path}:${l.line}`)).toEqual(["shop/orders.py:1", "shop/orders.py:9"]);
    expect(report.summary.dangling).toBe(1);

    expect(report.tests).toEqual([
      { path: "tests/test_orders.py", how: "calls", reaches: ["charge_card"] },
      { path: "tests/test_payments.py", how: "imports", reaches: expect.arrayContaining(["charge_card", "receipt", "void"]) },
    ]);
    expect(report.summary).toMatchObject({ files: 2, symbols: { added: 2, removed: 1, signature: 1, body: 1 }, impactedFiles: 2, impactedTests: 1, tests: 2 });

    // The context shows the changed file first, with the changed code, within its budget.
    expect(report.context!.files[0]).toBe("shop/payments.py");
    expect(report.context!.text).toContain("def charge_card(card, amount, currency):");
    expect(report.context!.files).toContain("shop/orders.py");
    expect(report.context!.tokens).toBeLessThanOrEqual(4000);
  });

  it("keeps the context within a small budget", async () => {
    const repo = shop();
    repo.write({ "shop/payments.py": CHANGED });
    const report = await review(engineOf(repo.root), { budget: 120 });
    expect(report.context!.budget).toBe(120);
    expect(report.context!.tokens).toBeGreaterThan(0);
    expect(report.context!.tokens).toBeLessThanOrEqual(120);
  });

  it("shows the notes pinned to touched code, with their staleness", async () => {
    const repo = shop();
    const engine = engineOf(repo.root);
    await engine.addNote("amounts are in cents", { symbol: "charge_card" });
    await engine.addNote("keep receipts short", { symbol: "receipt" });
    await engine.addNote("orders are placed once", { path: "shop/orders.py" });
    repo.write({ "shop/payments.py": PAYMENTS.replace("def charge_card(card, amount):", "def charge_card(card, cents):") });
    const report = await review(engine);
    // receipt did not change and its note is current: it is not part of this change.
    expect(report.notes.map((n) => `${n.text} (${n.status})`)).toEqual(["amounts are in cents (changed)"]);
    expect(formatReview(report)).toContain("**Notes to check:** `charge_card (shop/payments.py)` (changed)");
  });

  it("compares two commits (a branch against its base) and says when the index is of another tree", async () => {
    const repo = shop();
    repo.git("checkout", "-q", "-b", "feature");
    repo.write({ "shop/payments.py": CHANGED });
    repo.git("rm", "-q", "tests/test_payments.py");
    repo.git("mv", "shop/api.py", "shop/views.py");
    repo.commitAll("feature");
    repo.git("checkout", "-q", "main");
    const report = await review(engineOf(repo.root), { base: "main", head: "feature" });
    expect(report.range.head.ref).toBe("feature");
    expect(report.files.map((f) => `${f.status} ${f.previousPath ?? ""}${f.previousPath ? " -> " : ""}${f.path}`)).toEqual([
      "modified shop/payments.py",
      "renamed shop/api.py -> shop/views.py",
      "deleted tests/test_payments.py",
    ]);
    // A file only renamed changes no definition.
    expect(report.files[1]!.symbols).toBe(0);
    expect(report.symbols.map((s) => `${s.change} ${s.path}:${s.qualifiedName}`).sort()).toEqual([
      "added shop/payments.py:void",
      "body shop/payments.py:receipt",
      "removed shop/payments.py:refund",
      "removed tests/test_payments.py:test_module_loads",
      "signature shop/payments.py:charge_card",
    ]);
    expect(report.notices?.join("\n")).toMatch(/index of the work tree, which is not feature/);
  });

  it("works in a shallow clone of a pull request's merge commit with only the base fetched", async () => {
    const origin = shop();
    origin.git("checkout", "-q", "-b", "feature");
    origin.write({ "shop/payments.py": CHANGED });
    origin.commitAll("feature");
    origin.git("checkout", "-q", "main");
    origin.write({ "README.md": "# Shop\n\nMore docs.\n" });
    origin.commitAll("docs on main");
    // What GitHub checks out for a pull request: the merge of the branch into its base.
    origin.git("checkout", "-q", "-b", "pr-merge", "main");
    origin.git("merge", "-q", "--no-ff", "-m", "Merge feature", "feature");
    const dir = mkdtempSync(join(tmpdir(), "ctxsmith-shallow-"));
    dirs.push(dir);
    const clone = join(dir, "clone");
    const git = (...args: string[]) => execFileSync("git", args, { cwd: clone, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
    execFileSync("git", ["clone", "-q", "--depth", "1", "--branch", "pr-merge", `file://${origin.root}`, clone]);
    git("fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main");
    expect(git("rev-parse", "--is-shallow-repository").trim()).toBe("true");

    const report = await review(engineOf(clone), { base: "origin/main" });
    // The base tip is the merge commit's first parent: exactly the branch's change, not main's README.
    expect(report.files.map((f) => f.path)).toEqual(["shop/payments.py"]);
    expect(byName(report, "charge_card").callers.map((c) => c.symbol)).toEqual(["place_order"]);
    expect(report.notices?.join("\n")).toMatch(/share no commit in this clone/);
  });

  it("reviews a repository in a subfolder of its git work tree with paths relative to it", async () => {
    const outer = TempRepo.create(Object.fromEntries(Object.entries(FILES).map(([p, t]) => [`backend/${p}`, t])), { git: true });
    repos.push(outer);
    outer.write({ "backend/shop/payments.py": CHANGED, "frontend/app.js": "export const x = 1;\n" });
    const report = await review(engineOf(outer.path("backend")));
    expect(report.files.map((f) => f.path)).toEqual(["shop/payments.py"]);
    expect(byName(report, "charge_card").callers[0]!.path).toBe("shop/orders.py");
  });

  it("gives a file the index lacks (a head other than the work tree) no namesake's callers", async () => {
    const repo = shop();
    repo.git("checkout", "-q", "-b", "feature");
    repo.write({ "billing/payments.py": "def charge_card(x):\n    return x\n" });
    repo.commitAll("a second charge_card");
    repo.git("checkout", "-q", "main");
    const report = await review(engineOf(repo.root), { base: "main", head: "feature" });
    expect(report.symbols.map((s) => `${s.change} ${s.path}:${s.qualifiedName}`)).toEqual(["added billing/payments.py:charge_card"]);
    expect(report.symbols[0]!.callers).toEqual([]);
  });

  it("writes nothing of a file's name or a note's text as HTML or Markdown of its own", async () => {
    const repo = shop();
    const engine = engineOf(repo.root);
    await engine.addNote("see </details> and [this](http://evil.example) <b>now</b>", { path: "shop/payments.py" });
    repo.write({ "shop/payments.py": CHANGED, "shop/<img src=x onerror=alert(1)>.py": "def pwn():\n    return 1\n" });
    const text = formatReview(await review(engine));
    // In code spans the name is text; nowhere else is it HTML, nor the note a link.
    const outsideCode = text.replace(/`[^`\n]*`/g, "");
    expect(outsideCode).not.toMatch(/<img|<b>|[^\\]\]\(http/);
    expect(text).toContain("### shop/&lt;img src=x onerror=alert(1)&gt;.py");
    // Every fold closes where it should: the note's </details> is text.
    expect((text.match(/<details>/g) ?? []).length).toBe((text.match(/<\/details>/g) ?? []).length);
    expect(text).toContain("see &lt;/details&gt; and \\[this\\](http://evil.example) &lt;b&gt;now&lt;/b&gt;");
  });

  it("keeps the comment under GitHub's size limit for a change of hundreds of definitions", async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, f) => [`pkg/m${f}.py`, Array.from({ length: 20 }, (_, i) => `def f${f}_${i}(x):\n    return x + ${i}\n`).join("\n\n")]));
    const repo = TempRepo.create(files, { git: true });
    repos.push(repo);
    repo.write(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, t.replace(/\(x\)/g, "(x, y)")])));
    const report = await review(engineOf(repo.root), { budget: 8000 });
    expect(report.summary.symbols.signature).toBe(600);
    const text = formatReview(report);
    expect(text.length).toBeLessThan(65_536);
    expect(text).toContain("…and 500 more (see `--json`).");
    expect((text.match(/<details>/g) ?? []).length).toBe((text.match(/<\/details>/g) ?? []).length);
  });

  it("reports no change as such, with no context", async () => {
    const repo = shop();
    const report = await review(engineOf(repo.root));
    expect(report.files).toEqual([]);
    expect(report.context).toBeNull();
    expect(formatReview(report)).toContain("No changes from `main`");
  });

  it("names what it could not compare: a binary file, a file of no parsed language", async () => {
    const repo = TempRepo.create({ ...FILES, "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), "blob.py": Buffer.from([0x61, 0, 1]) }, { git: true });
    repos.push(repo);
    repo.write({ "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9]), "blob.py": Buffer.from([0x62, 0, 1]), "README.md": "# Shop\n\nNew.\n", "notes.txt": "todo\n" });
    const report = await review(engineOf(repo.root));
    const files = Object.fromEntries(report.files.map((f) => [f.path, f]));
    expect(files["logo.png"]).toMatchObject({ status: "modified", additions: null, symbols: 0, skipped: "no parsed language" });
    // Python by its name, binary inside: the index skips it, and the review says so.
    expect(files["blob.py"]!.skipped).toMatch(/not in the index/);
    expect(report.notices).toEqual([expect.stringMatching(/^blob\.py: definitions not compared \(not in the index/)]);
    expect(files["notes.txt"]).toMatchObject({ status: "added", skipped: "no parsed language" });
    // Markdown headings are places, not definitions.
    expect(files["README.md"]!.symbols).toBe(0);
    expect(report.symbols).toEqual([]);
  });

  it("refuses revisions that name no commit, and folders outside git, with clear errors", async () => {
    const repo = shop();
    const engine = engineOf(repo.root);
    await expect(review(engine, { base: "--output=/tmp/x" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/names no commit/) });
    await expect(review(engine, { base: "main", head: "nope" })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(review(engine, { budget: 0 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    const plain = TempRepo.create({ "a.py": "def f():\n    return 1\n" });
    repos.push(plain);
    await expect(review(engineOf(plain.root))).rejects.toMatchObject({ code: "GIT_FAILED", message: expect.stringMatching(/not in a git work tree/) });
    const lone = TempRepo.create({ "a.py": "def f():\n    return 1\n" }, { git: true });
    repos.push(lone);
    lone.git("branch", "-m", "main", "work");
    await expect(review(engineOf(lone.root))).rejects.toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/--base REF/) });
  });

  it("renders a summary first and folds the details", async () => {
    const repo = shop();
    repo.write({ "shop/payments.py": CHANGED });
    const text = formatReview(await review(engineOf(repo.root)));
    const lines = text.split("\n");
    expect(lines[0]).toBe("## ContextSmith review");
    expect(lines[2]).toMatch(/^\*\*1 file\*\* \(\+\d+ −\d+\) · \*\*4 definitions\*\* changed \(1 signature changed, 1 removed, 1 added, 1 body changed\) · called from \*\*2 other files\*\* and \*\*1 other test file\*\*/);
    expect(text).toContain("**Removed but still named:** `refund` (2 lines)");
    expect(text).toContain("| signature changed | `charge_card` | `shop/payments.py:1` | 1 | 2 files, 1 test file |");
    // Every detail is folded, and the packed code is inside its fold.
    const opened = text.indexOf("<details><summary>What to read for this change");
    expect(opened).toBeGreaterThan(0);
    expect(text.indexOf("def charge_card(card, amount, currency):")).toBeGreaterThan(opened);
    expect((text.match(/<details>/g) ?? []).length).toBe((text.match(/<\/details>/g) ?? []).length);
  });
});
