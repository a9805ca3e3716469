import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp, type RunningHttpServer } from "../../src/http/server.js";
import { TempRepo } from "../helpers/repo.js";

let repo: TempRepo;
let server: RunningHttpServer;
const log: string[] = [];

async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await done()); waited += 100) {
    if (waited > 30_000) throw new Error(`${what} never happened:\n${log.join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  // No index yet: the server builds it in the background, then watches the repository.
  repo = TempRepo.create({ "shop/cart.py": "def total(items):\n    return sum(items)\n" }, { git: true });
  server = await serveHttp({ listen: "127.0.0.1:0", workspace: false, root: repo.root, uiDir: null, watch: true, log: (line) => void log.push(line) });
});

afterAll(async () => {
  await server?.close();
  repo?.dispose();
});

describe("serve --http --watch", () => {
  it("indexes an edit as it happens: a query that reads the index as it is sees it", async () => {
    await until("watching", () => log.some((l) => l.includes("contextsmith: watching")));
    const name = server.ctx.workspace.repos()[0]!.name;
    repo.write({ "shop/tax.py": "def vat(amount):\n    return amount * 0.2\n" });
    await until("the run", () => log.some((l) => l.includes(`${name}: indexed 1 changed files (1 parsed, 0 removed)`)));
    // The symbol route never refreshes: what it finds, the watcher indexed.
    const r = await fetch(`${server.url}/api/v1/repos/${name}/symbols/vat`);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { matches: Array<{ path: string }> }).matches.map((m) => m.path)).toEqual(["shop/tax.py"]);
  });
});
