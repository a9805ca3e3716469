import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp, type RunningHttpServer } from "../../src/http/server.js";
import { defaultUiDir } from "../../src/http/ui-assets.js";
import { acquireWriteLock } from "../../src/runtime/lock.js";
import { TempRepo } from "../helpers/repo.js";
import { makeServices } from "../helpers/services.js";

// Debian's Chromium (.ci/run installs it), driven by playwright-core: no browser download.
const CHROMIUM = process.env.CTXSMITH_CHROMIUM ?? "/usr/bin/chromium";
// Screenshots land here (docs/screenshots when refreshing the README's pictures).
const SHOTS = process.env.CTXSMITH_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), "ctxsmith-shots-"));

const services = makeServices();
// A server of the web client's login call, for the API map.
const gateway = TempRepo.create({ "src/routes.ts": "import { Router } from 'express';\nconst router = Router();\nrouter.post('/api/v1/auth/login', login);\nexport default router;\nfunction login(req: unknown, res: unknown) {}\n" }, { git: true });
const billing = TempRepo.create({ "billing/invoice.py": "def issue_invoice(order):\n    return {'total': order.total}\n" }, { git: true });
const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ui-"));
const emptyDir = mkdtempSync(join(tmpdir(), "ctxsmith-ui-empty-"));
let server: RunningHttpServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function open(path = "/", theme: "light" | "dark" = "light", viewport = { width: 1280, height: 800 }): Promise<Page> {
  const p = await browser.newPage({ viewport, colorScheme: theme });
  p.on("pageerror", (e) => pageErrors.push(e.message));
  // A refused request (the cycle below) is logged by Chromium itself: not the page's error.
  p.on("console", (m) => m.type() === "error" && !m.text().startsWith("Failed to load resource: the server responded with a status of 409") && pageErrors.push(m.text()));
  await p.goto(`${server.url}${path}`);
  return p;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium), or set CTXSMITH_CHROMIUM.`);
  if (!defaultUiDir()) throw new Error("The web UI is not built: run `npm run build` first.");
  mkdirSync(SHOTS, { recursive: true });
  server = await serveHttp({ listen: "127.0.0.1:0", workspace: true, dataDir, log: () => undefined });
  const ws = server.ctx.workspace;
  for (const [name, repo] of Object.entries(services)) await ws.addRepo(name, repo.root);
  await ws.addRepo("gateway", gateway.root);
  await ws.addRelation("web", "auth");
  await ws.addRelation("auth", "schema");
  await ws.createGroup("backend", ["auth", "schema"]);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  page = await open();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
  [...Object.values(services), billing, gateway].forEach((r) => r.dispose());
});

describe("the web UI in headless Chromium", () => {
  it("search finds a known function, grouped by repository, with its code and signals", async () => {
    await page.fill("input[type=search]", "login session token");
    await page.press("input[type=search]", "Enter");
    await page.waitForSelector(".result");
    const web = page.locator(".repo-group", { has: page.locator("h3", { hasText: "web" }) });
    await expect.poll(() => web.locator(".qname").allTextContents()).toContain("submitLogin");
    const submit = page.locator(".result", { has: page.locator(".qname", { hasText: /^submitLogin$/ }) });
    expect(await submit.locator(".code-line .ln").first().textContent()).toBe("4");
    expect(await submit.locator(".signals .chip").count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, "search.png") });
  });

  it("expansion shows badges with direction and hops", async () => {
    await page.click("button.chip.toggle:text-is('web')");
    await page.selectOption("select:near(:text('Expand'))", "upstream");
    await page.press("input[type=search]", "Enter");
    await page.waitForSelector(".badge.expanded");
    const badges = await page.locator(".repo-name .badge").allTextContents();
    expect(badges[0]).toBe("primary");
    expect(badges).toContain("upstream · 1 hop");
  });

  it("the inspector opens the file at the result's lines, with its outline and callers", async () => {
    await page.click(".result:has(.qname:text-is('login'))");
    await page.waitForSelector(".drawer .code-line");
    expect(await page.locator(".drawer-title").textContent()).toBe("auth/login.py");
    const highlighted = await page.locator(".drawer .code-line.hl").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-line"))));
    expect(highlighted).toEqual([3, 4, 5, 6, 7, 8]);
    await expect.poll(() => page.locator(".outline > ul > li").allTextContents()).toEqual(["function login", "function open_session"]);
    await expect.poll(() => page.locator(".calls:has(h4:text-is('Callees')) li a").allTextContents()).toContain("open_session");
    await page.screenshot({ path: join(SHOTS, "inspector.png") });
    await page.keyboard.press("Escape");
    await page.waitForSelector(".drawer", { state: "detached" });
  });

  it("keyboard: arrows move through the results, Enter opens one", async () => {
    await page.focus(".results");
    const first = await page.locator(".result.selected .qname").textContent();
    await page.keyboard.press("ArrowDown");
    const second = await page.locator(".result.selected .qname").textContent();
    expect(second).not.toBe(first);
    await page.keyboard.press("Enter");
    expect(await page.locator(".drawer .muted").first().textContent()).toContain(second!);
    await page.keyboard.press("Escape");
  });

  it("packs a context for a task within the budget, with its token meter", async () => {
    await page.click("button.tab:text-is('Context')");
    await page.fill("textarea", "the login form sends the password and gets a session token");
    await page.fill("input[aria-label='budget in tokens']", "1200");
    await page.click("button:text-is('Pack context')");
    await page.waitForSelector(".packed-text, .error");
    expect(await page.locator(".error").count(), (await page.locator(".error").allTextContents()).join()).toBe(0);
    const meter = await page.locator(".tokens").textContent();
    const [used, budget] = meter!.split(" tokens")[0]!.split(" / ").map((n) => Number(n.replace(/,/g, "")));
    expect(budget).toBe(1200);
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(1200);
    expect(await page.locator(".packed-text").textContent()).toContain("### auth: auth/login.py");
    await page.screenshot({ path: join(SHOTS, "context.png") });
  });

  it("adding a repository shows its progress, then the repository", async () => {
    await page.click("button.tab:text-is('Repositories')");
    await page.waitForSelector("tr[data-repo='schema']");
    // Another writer holds the new repository's index: the job waits, and says so, until it is let go.
    mkdirSync(billing.path(".contextsmith"), { recursive: true });
    const lock = await acquireWriteLock(billing.path(".contextsmith"), { wait: false, holder: "test" });
    try {
      await page.fill("input[aria-label='name']", "billing");
      await page.fill("input[aria-label='source']", billing.root);
      await page.click("form.add-repo button[type=submit]");
      await page.waitForSelector(".job.running .progress-text");
      expect(await page.locator(".job.running").textContent()).toContain("add billing");
      await page.screenshot({ path: join(SHOTS, "repositories-progress.png") });
    } finally {
      lock.release();
    }
    await page.waitForSelector("tr[data-repo='billing']", { timeout: 60_000 });
    await page.waitForSelector(".job.running", { state: "detached" });
    // The row is drawn when the repository is registered, its counts when the list is read again
    // after the job: under load the second read can land after the job is gone from view.
    const cell = "tr[data-repo='billing'] td:nth-child(3)";
    // Polled from the test: a predicate evaluated in the page would be refused by its CSP (no eval).
    await expect.poll(() => page.locator(cell).textContent(), { timeout: 10_000 }).toBe("1");
  });

  it("draws the dependency graph and refuses a cycle in place", async () => {
    expect(await page.locator("svg.graph .node").count()).toBe(5);
    expect(await page.locator("svg.graph .edge").count()).toBe(2);
    await page.selectOption("select[aria-label='from']", "schema");
    await page.selectOption("select[aria-label='to']", "web");
    await page.click("form.relation-form button[type=submit]");
    const error = page.locator(".error", { hasText: "Refused: a cycle" });
    await error.waitFor();
    expect(await error.textContent()).toContain("schema → web → auth → schema");
    expect(await page.locator("svg.graph .edge").count()).toBe(2);
  });

  it("the API map lists the client's call linked to the handler that serves it, and opens it", async () => {
    await page.click("button.tab:text-is('API map')");
    await page.click("button.chip.toggle:text-is('all')");
    await page.selectOption("select:near(:text('Expand'))", "");
    const row = page.locator("table.api-calls tr", { hasText: "/api/v1/auth/login" });
    await row.waitFor();
    expect(await row.locator("td").nth(1).textContent()).toContain("src/login.ts:5");
    expect(await row.locator(".target").textContent()).toMatch(/gateway\s*login\s*same path · 1/);
    await page.screenshot({ path: join(SHOTS, "api-map.png") });
    await row.locator(".target a").click();
    await page.waitForSelector(".drawer .code-line.hl");
    expect(await page.locator(".drawer-title").textContent()).toBe("src/routes.ts");
    // The handler opens where it is defined (the route is declared on line 3).
    expect(await page.locator(".drawer .code-line.hl").getAttribute("data-line")).toBe("5");
    await page.keyboard.press("Escape");
  });

  it("has a dark theme and fits half a laptop screen", async () => {
    const dark = await open("/#repos", "dark", { width: 720, height: 800 });
    await dark.waitForSelector("tr[data-repo='billing']");
    const background = await dark.evaluate<string>("getComputedStyle(document.body).backgroundColor");
    expect(background).toBe("rgb(21, 23, 27)");
    const overflow = await dark.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow).toBeLessThanOrEqual(0);
    await dark.screenshot({ path: join(SHOTS, "repositories-dark.png") });
    await dark.close();
  });

  it("an empty workspace says what to do", async () => {
    const empty = await serveHttp({ listen: "127.0.0.1:0", workspace: true, dataDir: emptyDir, log: () => undefined });
    try {
      const p = await browser.newPage();
      await p.goto(empty.url);
      await p.waitForSelector(".empty h2");
      expect(await p.locator(".empty").textContent()).toContain("ctxsmith repo add");
      await p.close();
    } finally {
      await empty.close();
    }
  });

  it("served no page error and loaded nothing from elsewhere", () => {
    expect(pageErrors).toEqual([]);
  });
});
