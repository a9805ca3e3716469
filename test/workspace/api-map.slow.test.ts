import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Workspace } from "../../src/workspace/workspace.js";
import { runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

// A web client and two servers of one contract, indexed through the real pipeline.
const web = TempRepo.create(
  {
    "src/api.ts": [
      "import axios from 'axios';",
      "export const API_ROOT = 'https://shop.example.com/api';",
      "export const apiClient = {",
      "  async post(url: string, body: unknown) {",
      "    const r = await fetch(`${API_ROOT}${url}`, { method: 'POST', body: JSON.stringify(body) });",
      "    return r.json();",
      "  },",
      "};",
      "export const orders = axios.create({ baseURL: '/api/orders' });",
      "",
    ].join("\n"),
    "src/login.ts": ["import { apiClient } from './api';", "export function submitLogin(email: string) {", "  return apiClient.post('/auth/login', { email });", "}", ""].join("\n"),
    "src/endpoints.ts": ["export enum Endpoints { Users = '/api/users', Login = '/api/auth/login' }", "export const ROUTES = { tags: '/api/tags', user: { me: '/api/user' } };", ""].join("\n"),
    "src/profile.ts": ["import axios from 'axios';", "import { Endpoints, ROUTES } from './endpoints';", "export const me = () => axios.get(ROUTES.user.me);", "export const relogin = (body: unknown) => axios.post(Endpoints.Login, body);", ""].join("\n"),
    "src/orders.ts": [
      "import { orders } from './api';",
      "export const cancelOrder = (id: string) => orders.delete(`/${id}`);",
      "export const listOrders = () => orders.get('/');",
      "export const ping = () => fetch(`${location.origin}/ping`);",
      "export const refund = (id: string) => fetch(`/api/refunds/${id}`, { method: 'PUT' });",
      "",
    ].join("\n"),
  },
  { git: true },
);
const node = TempRepo.create(
  {
    "src/auth.controller.ts": ["import { Router } from 'express';", "const router = Router();", "router.post('/auth/login', login);", "export default router;", "function login(req: any, res: any) { res.send(authenticate()); }", "function authenticate() { return 1; }", ""].join("\n"),
    "src/orders.controller.ts": ["import { Router } from 'express';", "const router = Router();", "router.get('/orders', listOrders);", "router.delete('/orders/:id', cancelOrder);", "export default router;", "function listOrders() {}", "function cancelOrder() {}", ""].join("\n"),
    "src/routes.ts": ["import { Router } from 'express';", "import auth from './auth.controller';", "import orders from './orders.controller';", "const api = Router().use(auth).use(orders);", "export default Router().use('/api', api);", ""].join("\n"),
    "src/main.ts": ["import express from 'express';", "import routes from './routes';", "const app = express();", "app.use(routes);", ""].join("\n"),
  },
  { git: true },
);
const python = TempRepo.create(
  {
    "app/routes/auth.py": ["from fastapi import APIRouter", "router = APIRouter()", "@router.post('/login')", "def login():", "    pass", ""].join("\n"),
    "app/routes/api.py": ["from fastapi import APIRouter", "from app.routes import auth", "router = APIRouter()", "router.include_router(auth.router, prefix='/auth')", ""].join("\n"),
    "app/main.py": ["from fastapi import FastAPI", "from app.routes.api import router as api_router", "app = FastAPI()", "app.include_router(api_router, prefix=settings.api_prefix)", ""].join("\n"),
  },
  { git: true },
);
// A monorepo: the client and the server of one contract in one repository.
const mono = TempRepo.create(
  {
    "server/users.ts": ["import express from 'express';", "const app = express();", "app.get('/api/users/:id', getUser);", "function getUser(req: any, res: any) { res.json({}); }", ""].join("\n"),
    "client/users.ts": ["export async function loadUser(id: string) {", "  return fetch(`/api/users/${id}`);", "}", ""].join("\n"),
    "server/orders.ts": ["import { Router } from 'express';", "const router = Router();", "router.post('/api/orders', async (req: any, res: any) => {", "  res.json(await placeOrder(req.body));", "});", "async function placeOrder(body: unknown) { return body; }", "export default router;", ""].join("\n"),
    "client/orders.ts": ["export const submitOrder = (order: unknown) => fetch('/api/orders', { method: 'POST', body: JSON.stringify(order) });", ""].join("\n"),
  },
  { git: true },
);
const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-apimap-"));
let ws: Workspace;

beforeAll(async () => {
  ws = new Workspace({ dataDir, engine: { jobs: 1, semantic: false } });
  await ws.addRepo("web", web.root);
  await ws.addRepo("node", node.root);
  await ws.addRepo("py", python.root);
});

afterAll(async () => {
  await ws?.close();
  rmSync(dataDir, { recursive: true, force: true });
  [web, node, python, mono].forEach((r) => r.dispose());
});

describe("the API map across repositories (real index)", () => {
  it("follows router mounts across files to full paths, in TypeScript and Python", async () => {
    const map = await ws.apiMap({ all: true });
    expect(map.routes.filter((r) => r.repo === "node").map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual(["POST /api/auth/login login", "GET /api/orders listOrders", "DELETE /api/orders/:id cancelOrder"]);
    expect(map.routes.filter((r) => r.repo === "py").map((r) => [r.method, r.path, r.pattern, r.unknownPrefix, r.file, r.handler])).toEqual([
      ["POST", "{settings.api_prefix}/auth/login", "/auth/login", "settings.api_prefix", "app/routes/auth.py", "login"],
    ]);
  });

  it("links each call to the handlers that serve it, through a wrapper, an imported constant and an axios instance's baseURL; says why when it cannot", async () => {
    const map = await ws.apiMap({ all: true });
    const byLine = (file: string, line: number) => map.calls.find((c) => c.file === file && c.line === line) ?? expect.fail(`no call at ${file}:${line}: ${JSON.stringify(map.calls.map((c) => [c.file, c.line, c.url]))}`);
    const login = byLine("src/login.ts", 3);
    expect(login).toMatchObject({ repo: "web", method: "POST", url: "https://shop.example.com/api/auth/login", pattern: "/api/auth/login", symbol: "submitLogin" });
    // An absolute URL names a host the code cannot tell is its own: a little less sure.
    expect(login.host).toBe("shop.example.com");
    expect(login.targets.map((t) => [t.repo, t.file, t.line, t.handler, t.confidence])).toEqual([
      ["node", "src/auth.controller.ts", 3, "login", 0.9],
      ["py", "app/routes/auth.py", 3, "login", 0.7],
    ]);
    expect(byLine("src/orders.ts", 2).targets.map((t) => [t.repo, t.pattern, t.handler])).toEqual([["node", "/api/orders/{}", "cancelOrder"]]);
    expect(byLine("src/orders.ts", 3).targets.map((t) => t.handler)).toEqual(["listOrders"]);
    // A base URL the code does not give is kept by name; the path after it is matched.
    expect(byLine("src/orders.ts", 4)).toMatchObject({ base: "location.origin", url: "{location.origin}/ping", pattern: "/ping", targets: [], why: "no route matches /ping" });
    expect(byLine("src/orders.ts", 5)).toMatchObject({ method: "PUT", targets: [], why: "no route matches /api/refunds/{}" });
  });

  it("URLs from an enum member and an object of constants in another file", async () => {
    const calls = (await ws.apiMap({ all: true })).calls.filter((c) => c.file === "src/profile.ts");
    expect(calls.map((c) => [c.line, c.method, c.url, c.targets.map((t) => `${t.repo} ${t.handler}`)])).toEqual([
      [3, "GET", "/api/user", []],
      [4, "POST", "/api/auth/login", ["node login", "py login"]],
    ]);
  });

  it("ctxsmith api: the JSON contract, --unmatched, and the scope", () => {
    const env = { CTXSMITH_DATA_DIR: dataDir };
    const all = runCli(["api", "--all", "--json"], { env });
    expect(all.status, all.stderr).toBe(0);
    const map = JSON.parse(all.stdout) as { routes: Array<Record<string, unknown>>; calls: Array<Record<string, unknown> & { targets: Array<Record<string, unknown>> }> };
    expect(Object.keys(map)).toEqual(["routes", "calls"]);
    for (const key of ["repo", "method", "path", "pattern", "file", "line", "handler"]) expect(map.routes[0]).toHaveProperty(key);
    for (const key of ["repo", "method", "url", "pattern", "file", "line", "symbol", "targets", "why"]) expect(map.calls[0]).toHaveProperty(key);
    for (const key of ["repo", "method", "pattern", "file", "line", "handler", "confidence", "how"]) expect(map.calls.find((c) => c.targets.length > 0)!.targets[0]).toHaveProperty(key);
    const unmatched = JSON.parse(runCli(["api", "--all", "--unmatched", "--json"], { env }).stdout) as typeof map;
    expect(unmatched.routes).toEqual([]);
    expect(unmatched.calls.map((c) => `${c.file}:${c.line}`)).toEqual(["src/orders.ts:4", "src/orders.ts:5", "src/profile.ts:3"]);
    // Only the client in scope: nothing to link to, and it says so.
    const alone = runCli(["api", "--repo", "web"], { env });
    expect(alone.stdout).toContain("✗ no routes in the scope");
    // One repository without a workspace: the map within it.
    const single = JSON.parse(runCli(["api", "--path", node.root, "--json"]).stdout) as typeof map;
    expect(single.routes.map((r) => r.path)).toEqual(["/api/auth/login", "/api/orders", "/api/orders/:id"]);
  });

  it("an edit re-reads that file's routes: the map follows the index", async () => {
    node.write({ "src/orders.controller.ts": ["import { Router } from 'express';", "const router = Router();", "router.get('/orders', listOrders);", "router.delete('/orders/:id', cancelOrder);", "router.put('/refunds/:id', refund);", "export default router;", "function listOrders() {}", "function cancelOrder() {}", "function refund() {}", ""].join("\n") });
    await ws.sync(["node"]);
    const map = await ws.apiMap({ all: true });
    const refund = map.calls.find((c) => c.file === "src/orders.ts" && c.line === 5)!;
    expect(refund.targets.map((t) => [t.repo, t.pattern, t.handler])).toEqual([["node", "/api/refunds/{}", "refund"]]);
  });

  it("callers, callees and impact cross the contract: the requests that reach a handler, the handlers a request reaches", async () => {
    const [callers] = await ws.calls("login", "callers", { repo: "node" });
    expect(callers!.api!.map((h) => [h.repo, h.file, h.line, h.symbol, h.method, h.via, h.confidence])).toEqual([
      ["web", "src/profile.ts", 4, "relogin", "POST", "login", 1],
      ["web", "src/login.ts", 3, "submitLogin", "POST", "login", 0.9],
    ]);
    const [callees] = await ws.calls("submitLogin", "callees", { repo: "web" });
    expect(callees!.api!.map((h) => [h.repo, h.file, h.line, h.symbol, h.path, h.via])).toEqual([
      ["node", "src/auth.controller.ts", 5, "login", "/api/auth/login", "submitLogin"],
      // A decorated Python function starts at its decorator.
      ["py", "app/routes/auth.py", 3, "login", "/auth/login", "submitLogin"],
    ]);
    // What the handler calls: its impact reaches the client through the handler.
    const [impact] = await ws.impact("authenticate", 3, { repo: "node" });
    expect(impact!.api!.map((h) => [h.repo, h.symbol, h.via])).toEqual([["web", "relogin", "login"], ["web", "submitLogin", "login"]]);
    // The CLI asks the workspace with --repo: the same hops, per repository.
    const env = { CTXSMITH_DATA_DIR: dataDir };
    const cli = runCli(["callers", "login", "--repo", "node", "--json"], { env });
    expect(cli.status, cli.stderr).toBe(0);
    expect((JSON.parse(cli.stdout) as { results: Array<{ repo: string; api: unknown[] }> }).results.map((r) => [r.repo, r.api.length])).toEqual([["node", 2]]);
    expect(runCli(["impact", "authenticate", "--repo", "node"], { env }).stdout).toMatch(/^## node\n[^]*reached over HTTP by 2 requests \(API links\):\n {2}web src\/profile\.ts:4 {2}relogin/m);
    expect(runCli(["callers", "login", "--repo", "node", "--path", "/tmp"], { env }).stderr).toContain("not both");
    // A function that calls no route has no hops.
    const [plain] = await ws.calls("cancelOrder", "callers", { repo: "web" });
    expect(plain?.api).toBeUndefined();
  });

  it("within one repository: ctxsmith callers and callees follow the contract, in JSON and text", () => {
    const callers = runCli(["callers", "getUser", "--path", mono.root, "--json"]);
    expect(callers.status, callers.stderr).toBe(0);
    expect((JSON.parse(callers.stdout) as { api: unknown[] }).api).toEqual([
      { repo: basename(mono.root), file: "client/users.ts", line: 2, symbol: "loadUser", method: "GET", path: "/api/users/{}", via: "getUser", confidence: 0.9, how: "same path, through parameters" },
    ]);
    // A handler written in place: what it calls is reached by the requests of its route.
    const impact = JSON.parse(runCli(["impact", "placeOrder", "--path", mono.root, "--json"]).stdout) as { api: Array<{ symbol: string; file: string; line: number }> };
    expect(impact.api.map((h) => [h.file, h.line, h.symbol])).toEqual([["client/orders.ts", 1, "submitOrder"]]);
    const text = runCli(["callees", "loadUser", "--path", mono.root]);
    expect(text.stdout).toContain("over HTTP (the route handlers its requests reach):");
    expect(text.stdout).toContain("server/users.ts:4  getUser  GET /api/users/{} (loadUser)  [0.9: same path, through parameters]");
  });

  it("context brings the other side of the contract into the pack: a task about the client sees the handler", async () => {
    const packed = await ws.context("submitLogin", { repos: ["web", "node"] }, { budget: 2000 });
    const handler = packed.spans.find((sp) => sp.repo === "node" && sp.path === "src/auth.controller.ts");
    expect(handler, JSON.stringify(packed.spans)).toBeDefined();
    expect(handler!.start).toBeLessThanOrEqual(5);
    expect(handler!.end).toBeGreaterThanOrEqual(5);
    expect(packed.text).toContain("API: POST https://shop.example.com/api/auth/login is served by login");
    // And the other way: a task about the handler sees who requests it.
    const served = await ws.context("the authenticate function used by login", { repos: ["web", "node"] }, { budget: 2000 });
    expect(served.spans.some((sp) => sp.repo === "web" && sp.path === "src/login.ts")).toBe(true);
    expect(served.text).toContain("API: submitLogin requests POST https://shop.example.com/api/auth/login");
  });

  it("within one repository: ctxsmith context packs the handler a client function's request reaches", () => {
    const out = runCli(["context", "loadUser", "--path", mono.root, "--json", "--budget", "1500"]);
    expect(out.status, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout) as { files: string[]; spans: Array<{ path: string; start: number; end: number }> };
    expect(result.files.slice(0, 2)).toEqual(["client/users.ts", "server/users.ts"]);
    expect(result.spans.find((sp) => sp.path === "server/users.ts")).toMatchObject({ start: expect.any(Number) });
  });

  it("declared rules are honoured: a repository's prefix behind a gateway, a link the code cannot show; removing them restores the map", async () => {
    const env = { CTXSMITH_DATA_DIR: dataDir };
    const loginTargets = async () => (await ws.apiMap({ all: true })).calls.find((c) => c.file === "src/login.ts")!.targets.map((t) => [t.repo, t.confidence, t.how]);
    expect(runCli(["api-rule", "prefix", "py", "/api"], { env }).stdout).toBe("py's routes are reached under /api.\n");
    expect(await loginTargets()).toContainEqual(["py", 0.9, "same path under the declared prefix /api, on host shop.example.com"]);
    expect(runCli(["api-rule", "link", "web GET /ping", "node get /api/orders"], { env }).status).toBe(0);
    const ping = (await ws.apiMap({ all: true })).calls.find((c) => c.url === "{location.origin}/ping")!;
    expect(ping.targets.map((t) => [t.repo, t.handler, t.confidence, t.how])).toEqual([["node", "listOrders", 1, "declared in the workspace"]]);
    // A declared link to a route the code does not serve says so.
    expect(runCli(["api-rule", "link", "web PUT /api/refunds/{id}", "node PUT /nowhere"], { env }).status).toBe(0);
    expect((await ws.apiMap({ all: true })).calls.find((c) => c.file === "src/orders.ts" && c.line === 5)!.why).toBe("declared to reach node PUT /nowhere, which the code does not serve");
    const shown = JSON.parse(runCli(["api-rule", "show", "--json"], { env }).stdout) as { prefixes: Record<string, string>; links: unknown[] };
    expect(shown.prefixes).toEqual({ py: "/api" });
    expect(shown.links).toHaveLength(2);
    // Bad input: a malformed side, an unregistered repository, a prefix that is not a path.
    expect(runCli(["api-rule", "link", "web /ping", "node GET /x"], { env }).stderr).toContain('"web /ping" is not "REPO METHOD PATH"');
    expect(runCli(["api-rule", "link", "nope GET /ping", "node GET /x"], { env }).stderr).toContain("nope");
    expect(runCli(["api-rule", "prefix", "py", "api"], { env }).stderr).toContain("An API prefix is a path starting with /");
    // What would not read back is refused before it is written: the registry stays readable.
    expect(runCli(["api-rule", "prefix", "py", `/${"a".repeat(600)}`], { env }).stderr).toContain("The change was refused, nothing was written");
    expect(runCli(["api-rule", "show", "--json"], { env }).status).toBe(0);
    // Forgetting them restores what the code says.
    expect(runCli(["api-rule", "prefix", "py", "--remove"], { env }).status).toBe(0);
    expect(runCli(["api-rule", "link", "web GET /ping", "node GET /api/orders", "--remove"], { env }).status).toBe(0);
    expect(runCli(["api-rule", "link", "web PUT /api/refunds/{id}", "node PUT /nowhere", "--remove"], { env }).status).toBe(0);
    expect(runCli(["api-rule", "show"], { env }).stdout).toBe("No API rule declared.\n");
    expect(await loginTargets()).toContainEqual(["py", 0.7, "the call's /api taken as the route's configured prefix, on host shop.example.com"]);
  });
});
