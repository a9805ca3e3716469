import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../../../src/engine.js";
import type { CallsResult } from "../../../../src/graph/types.js";
import { TempRepo } from "../../../helpers/repo.js";
import { withIndexedEngine } from "../../../helpers/index.js";
import { storeOf } from "../../../helpers/store.js";

/** Sections enough that the guide is no small file packed whole (see wholeFileLines). */
const filler = (title: string): string => `## ${title}\n\n${Array.from({ length: 30 }, (_, i) => `Line ${i} about ${title.toLowerCase()} and nothing else.`).join("\n")}\n\n`;

const FILES: Record<string, string> = {
  "docs/guide.md": `# Operations guide\n\n${filler("Monitoring")}${filler("Backups")}## Deploying\n\n### Rollback\n\nTo roll back a release, run \`deploy --revert\` with the release id.\n\n\`\`\`sh\n# revert the canary first\ndeploy --revert 42\n\`\`\`\n\n${filler("Scaling")}${filler("Auditing")}`,
  "db/schema.sql": `CREATE TABLE customers (id int PRIMARY KEY, name text);\nCREATE TABLE sales.orders (id int, customer_id int REFERENCES customers(id));\nCREATE VIEW big_orders AS SELECT * FROM sales.orders WHERE id > 10;\n`,
  "db/report.sql": `SELECT c.name FROM customers c JOIN sales.orders o ON o.customer_id = c.id;\nSELECT * FROM big_orders;\nSELECT * FROM missing_table;\n`,
  "web/theme.css": `:root {\n  --brand: #f00;\n}\n`,
  "web/site.css": `@import "theme.css";\n@use "partials/grid";\n.btn { color: var(--brand); }\n.btn:hover { color: red; }\n`,
  "web/partials/_grid.scss": `.grid { display: grid; }\n`,
  "web/app.js": `export function start() {}\n`,
  "web/index.html": `<link rel="stylesheet" href="site.css">\n<script src="/web/app.js"></script>\n<main id="app">\n<script>\nfunction boot() { return render(); }\nfunction render() { return 1; }\n</script>\n</main>\n`,
  "package.json": `{\n  "name": "shop",\n  "scripts": { "build": "tsc" }\n}\n`,
  "deploy/values.yaml": `replicas: 3\nimage:\n  tag: v1\n`,
  "pyproject.toml": `[project]\nname = "shop"\n`,
};

function callerEdges(result: CallsResult): string[] {
  return result.calls.map((c) => `${c.path}:${c.symbol?.qualifiedName ?? "<module>"} ${c.how}`);
}

describe("outlined files through the index", () => {
  let repo: TempRepo;
  let engine: Engine;

  beforeAll(async () => {
    repo = TempRepo.create(FILES, { git: true });
    engine = new Engine(repo.root, { jobs: 1, git: false });
    const stats = await engine.index();
    expect(stats.files.parsed).toBe(Object.keys(FILES).length);
  });
  afterAll(async () => {
    await engine.close();
    repo.dispose();
  });

  it("records each format as its language, with its definitions", () => {
    const store = storeOf(engine)!;
    expect(Object.fromEntries(Object.keys(FILES).map((path) => [path, store.file(path)?.language]))).toEqual({
      "docs/guide.md": "markdown", "db/schema.sql": "sql", "db/report.sql": "sql", "web/theme.css": "css", "web/site.css": "css",
      "web/partials/_grid.scss": "css", "web/app.js": "javascript", "web/index.html": "html", "package.json": "json", "deploy/values.yaml": "yaml", "pyproject.toml": "toml",
    });
    expect(store.parse.symbols("web/index.html")!.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual(["element app", "element script", "function boot", "function render"]);
    expect(store.parse.symbols("deploy/values.yaml")!.map((s) => s.qualifiedName)).toEqual(["replicas", "image", "image.tag"]);
  });

  it("finds sections, tables and keys with symbol", async () => {
    expect((await engine.symbol("Rollback")).matches.map((m) => `${m.path}:${m.qualifiedName}:${m.kind}:${m.startLine}`)).toEqual([
      "docs/guide.md:Operations guide > Deploying > Rollback:section:71",
    ]);
    expect((await engine.symbol("sales.orders")).matches.map((m) => `${m.path}:${m.kind}`)).toEqual(["db/schema.sql:table"]);
    expect((await engine.symbol("scripts.build")).matches.map((m) => m.path)).toEqual(["package.json"]);
    // Names with dots and colons, as outlines write them, are names first.
    expect((await engine.symbol(".btn:hover")).matches.map((m) => `${m.path}:${m.kind}`)).toEqual(["web/site.css:rule"]);
  });

  it("links a page to its scripts and style sheets, and a style sheet to what it imports", async () => {
    expect((await engine.related("web/index.html")).imports).toEqual(["web/app.js", "web/site.css"]);
    expect((await engine.related("web/site.css")).imports).toEqual(["web/partials/_grid.scss", "web/theme.css"]);
    expect((await engine.related("web/theme.css")).importedBy).toEqual(["web/site.css"]);
  });

  it("resolves the tables a query names across SQL files, and custom properties across style sheets", async () => {
    expect(callerEdges(await engine.callers("customers"))).toEqual(["db/report.sql:<module> unique", "db/schema.sql:sales.orders unique"]);
    expect(callerEdges(await engine.callers("sales.orders"))).toEqual(["db/report.sql:<module> unique", "db/schema.sql:big_orders unique"]);
    expect(callerEdges(await engine.callers("--brand"))).toEqual(["web/site.css:.btn unique"]);
    // An inline script's calls resolve like JavaScript's within the page.
    expect(callerEdges(await engine.callers("render"))).toEqual(["web/index.html:boot local"]);
  });

  it("resolves SQL names whatever their case, as SQL folds an unquoted name's, the name as written first; a table created later too", async () => {
    const sql = TempRepo.create({
      "db/schema.sql": "CREATE TABLE Customers (id int);\nCREATE TABLE sales.Orders (id int);\nCREATE TABLE orders (id int);\n",
      "db/report.sql": "SELECT * FROM CUSTOMERS;\nSELECT * FROM Sales.ORDERS;\nSELECT * FROM orders;\nSELECT * FROM invoices;\n",
    });
    try {
      await withIndexedEngine(sql.root, { git: false }, async (sqlEngine) => {
        expect(callerEdges(await sqlEngine.callers("Customers"))).toEqual(["db/report.sql:<module> unique"]);
        // `Sales.ORDERS` names the schema's table; a bare `orders` the one written so, not sales.Orders.
        expect(callerEdges(await sqlEngine.callers("sales.Orders"))).toEqual(["db/report.sql:<module> unique"]);
        expect((await sqlEngine.callers("orders")).calls.map((c) => `${c.path}:${c.line} ${c.how}`)).toEqual(["db/report.sql:3 unique"]);
        sql.write({ "db/billing.sql": "CREATE TABLE Invoices (id int);\n" });
        await sqlEngine.index();
        expect(callerEdges(await sqlEngine.callers("Invoices"))).toEqual(["db/report.sql:<module> unique"]);
      });
    } finally {
      sql.dispose();
    }
  });

  it("packs the Markdown section that matches, as it packs a function", async () => {
    const context = await engine.context("how do I roll back a release with deploy --revert", { budget: 600 });
    expect(context.files[0]).toBe("docs/guide.md");
    const rollback = context.spans.find((s) => s.symbol === "Operations guide > Deploying > Rollback");
    expect(rollback).toMatchObject({ path: "docs/guide.md", kind: "body", start: 71 });
    expect(context.text).toContain("deploy --revert 42");
    // The other sections do not fit beside it whole.
    expect(context.spans.some((s) => s.symbol === "Operations guide > Scaling" && s.kind === "body")).toBe(false);
  });
});
