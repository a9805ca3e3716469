import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHttp, type RunningHttpServer } from "../../src/http/server.js";
import { ContextResponse, FileResponse, JobAccepted, ReposResponse, SearchResponse } from "../../src/http/schemas.js";
import { acquireWriteLock } from "../../src/runtime/lock.js";
import { makeServices } from "../helpers/services.js";
import { startCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

const services = makeServices();
const extra = TempRepo.create({ "billing/invoice.py": "def issue_invoice(order):\n    return {'total': order.total}\n" }, { git: true });
const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-http-"));
const secret = mkdtempSync(join(tmpdir(), "ctxsmith-secret-"));
writeFileSync(join(secret, "passwords.txt"), "root:hunter2\n");
let server: RunningHttpServer;

/** A request over the real socket, as a client on this machine sends it. */
async function http(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any; headers: Headers }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json, headers: response.headers };
}

/** The status of a GET with a Host header of our choosing. */
function rawStatus(path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: server.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    req.end();
  });
}

async function waitForJob(id: string): Promise<any> {
  for (let i = 0; i < 600; i++) {
    const { json } = await http("GET", `/api/v1/jobs/${id}`);
    if (json.job.state === "done" || json.job.state === "failed") return json.job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

beforeAll(async () => {
  // A link out of the repository, made before indexing: the walk never follows it.
  symlinkSync(join(secret, "passwords.txt"), services.auth.path("auth/passwords.txt"));
  server = await serveHttp({ listen: "127.0.0.1:0", workspace: true, dataDir, uiDir: null, log: () => undefined });
  const ws = server.ctx.workspace;
  for (const [name, repo] of Object.entries(services)) await ws.addRepo(name, repo.root);
  await ws.addRelation("web", "auth");
  await ws.addRelation("auth", "schema");
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(secret, { recursive: true, force: true });
  [...Object.values(services), extra].forEach((r) => r.dispose());
});

describe("serve --http: the REST API over a real socket", () => {
  it("searches across repositories: code, signals, provenance and a scope header on every result", async () => {
    const { status, json } = await http("POST", "/api/v1/search", { query: "login session token", repos: ["web"], expand: "upstream", expand_depth: 2 });
    expect(status).toBe(200);
    const answer = SearchResponse.parse(json);
    expect(answer.scope.map((p) => [p.repo, p.relation, p.hops])).toEqual([
      ["web", "primary", 0],
      ["auth", "expanded", 1],
      ["schema", "expanded", 2],
    ]);
    const login = answer.results.find((r) => r.qualifiedName === "login")!;
    expect(login).toMatchObject({ repo: "auth", relation: "expanded", direction: "upstream", hops: 1, path: "auth/login.py", line: 3, endLine: 8, kind: "function" });
    expect(login.header).toBe("### auth: auth/login.py · lines 3-8 · in login");
    expect(login.text.split("\n")[0]).toBe("def login(email, password):");
    expect(login.signals.length).toBeGreaterThan(0);
    const submit = answer.results.find((r) => r.qualifiedName === "submitLogin")!;
    expect(submit).toMatchObject({ repo: "web", relation: "primary", hops: 0 });
  });

  it("packs one budget across repositories with the contract of `context --json`", async () => {
    const { status, json } = await http("POST", "/api/v1/context", { task: "the login form sends the password and gets a session token", budget: 1200, groups: undefined });
    expect(status).toBe(200);
    const packed = ContextResponse.parse(json);
    expect(packed.tokens).toBeLessThanOrEqual(1200);
    expect(packed.budget).toBe(1200);
    expect(packed.repos).toHaveLength(packed.files.length);
    expect(new Set(packed.repos)).toContain("auth");
    expect(packed.spans.every((s) => ["web", "auth", "schema"].includes(s.repo))).toBe(true);
    expect(packed.text).toContain("### auth: auth/login.py");
    expect(Object.keys(json).sort()).toEqual(["budget", "files", "notes", "notices", "repos", "scope", "spans", "text", "tokens"]);
  });

  it("serves files of the index only: a traversal, a link out and a file changed since indexing are 404", async () => {
    const file = await http("GET", "/api/v1/repos/auth/files/auth/login.py?start=3&end=4");
    expect(file.status).toBe(200);
    const view = FileResponse.parse(file.json);
    expect(view.text).toBe("def login(email, password):\n    \"\"\"Checks the password and opens a session: returns the session token.\"\"\"");
    expect(view.outline.map((o) => o.name)).toEqual(["login", "open_session"]);
    for (const path of ["auth/passwords.txt", "..%2F..%2F..%2Fetc%2Fpasswd", "%2Fetc%2Fpasswd", "auth/../../etc/passwd"]) {
      const refused = await http("GET", `/api/v1/repos/auth/files/${path}`);
      expect(refused.status, path).toBe(404);
      expect(JSON.stringify(refused.json)).not.toContain("hunter2");
    }
    services.schema.write({ "schema/order.py": "class OrderRecord:\n    total = 1\n" });
    expect((await http("GET", "/api/v1/repos/schema/files/schema/order.py")).status).toBe(404);
    expect((await http("GET", "/api/v1/repos/nope/files/a.py")).json.error.code).toBe("NOT_FOUND");
    expect((await http("GET", "/api/v1/repos/auth/files/auth/login.py?start=0")).status).toBe(400);
  });

  it("navigates the code: symbols, callers, callees, impact", async () => {
    const symbol = await http("GET", "/api/v1/repos/auth/symbols/open_session");
    expect(symbol.json.matches).toEqual([expect.objectContaining({ repo: "auth", path: "auth/login.py", qualifiedName: "open_session", startLine: 10 })]);
    const callers = await http("GET", "/api/v1/repos/auth/callers/open_session");
    expect(callers.json.results[0].calls.map((c: any) => c.symbol?.qualifiedName)).toEqual(["login"]);
    const callees = await http("GET", `/api/v1/repos/auth/callees/${encodeURIComponent("auth/login.py:login")}`);
    expect(callees.json.results[0].calls.map((c: any) => c.symbol?.qualifiedName)).toContain("open_session");
    const impact = await http("GET", "/api/v1/repos/auth/impact/open_session?depth=2");
    expect(impact.json.results[0]).toMatchObject({ repo: "auth", depth: 2, counts: { symbols: 1 } });
    expect((await http("GET", "/api/v1/repos/auth/impact/open_session?depth=99")).status).toBe(400);
  });

  it("manages groups and relations; a cycle is 409 with the cycle", async () => {
    expect((await http("POST", "/api/v1/groups", { name: "backend", repos: ["auth", "schema"] })).status).toBe(201);
    expect((await http("POST", "/api/v1/groups", { name: "backend", repos: [] })).json.error.code).toBe("ALREADY_EXISTS");
    expect((await http("POST", "/api/v1/groups/backend/repos", { repos: ["web"] })).json.repos).toEqual(["auth", "schema", "web"]);
    expect((await http("DELETE", "/api/v1/groups/backend/repos/web")).json.repos).toEqual(["auth", "schema"]);
    expect((await http("GET", "/api/v1/groups")).json.groups).toEqual({ backend: ["auth", "schema"] });
    const cycle = await http("POST", "/api/v1/relations", { from: "schema", to: "web" });
    expect(cycle.status).toBe(409);
    expect(cycle.json.error).toMatchObject({ code: "DEPENDENCY_CYCLE", data: { cycle: ["schema", "web", "auth", "schema"] } });
    const around = await http("GET", "/api/v1/relations?repo=auth");
    expect(around.json).toMatchObject({ repo: "auth", dependsOn: [{ repo: "schema", hops: 1 }], dependents: [{ repo: "web", hops: 1 }] });
    expect((await http("DELETE", "/api/v1/groups/backend")).json).toEqual({ ok: true });
    // A group named after a property of every object is a group like any other.
    expect((await http("POST", "/api/v1/groups/constructor/repos", { repos: ["web"] })).status).toBe(404);
    expect((await http("POST", "/api/v1/search", { query: "x", groups: ["constructor"] })).status).toBe(404);
    expect((await http("POST", "/api/v1/groups", { name: "constructor", repos: ["web"] })).status).toBe(201);
    expect((await http("DELETE", "/api/v1/groups/constructor")).status).toBe(200);
    expect((await http("DELETE", "/api/v1/relations/schema/web")).status).toBe(404);
    const repos = ReposResponse.parse((await http("GET", "/api/v1/repos")).json);
    expect(repos.repos.map((r) => r.name)).toEqual(["web", "auth", "schema"]);
    expect(repos.editable).toBe(true);
  });

  it("adds a repository as a job, with progress over server-sent events, then removes it", async () => {
    const events = await fetch(`${server.url}/api/v1/events`);
    const reader = events.body!.getReader();
    const accepted = await http("POST", "/api/v1/repos", { name: "billing", source: extra.root });
    expect(accepted.status).toBe(202);
    const { job } = JobAccepted.parse(accepted.json);
    expect(job).toMatchObject({ kind: "add", repos: ["billing"] });
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ state: "done", result: { name: "billing", kind: "local" } });
    let streamed = "";
    while (!streamed.includes('"state":"done"')) streamed += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect(streamed).toContain("event: job");
    expect(streamed).toMatch(/"state":"running"/);
    expect(streamed).toMatch(/"progress":\{"stage":"[a-z]+"/);
    const search = await http("POST", "/api/v1/search", { query: "issue invoice", repos: ["billing"] });
    expect(search.json.results[0]).toMatchObject({ repo: "billing", qualifiedName: "issue_invoice" });
    // Refused at once, before any job: a name taken, a relative folder, a credential in a URL.
    expect((await http("POST", "/api/v1/repos", { name: "billing", source: extra.root })).status).toBe(409);
    expect((await http("POST", "/api/v1/repos", { name: "rel", source: "some/folder" })).status).toBe(400);
    expect((await http("POST", "/api/v1/repos", { name: "cred", source: "https://user:pw@example.invalid/x.git" })).status).toBe(400);
    expect((await http("POST", "/api/v1/repos", { name: "Bad Name", source: extra.root })).status).toBe(400);
    expect((await http("POST", "/api/v1/repos", { name: "root", source: "/" })).status).toBe(400);
    expect((await http("POST", "/api/v1/repos", { name: "proc", source: "/proc" })).json.error.message).toMatch(/system folder/);
    expect((await http("DELETE", "/api/v1/repos/billing")).json.removed).toMatchObject({ name: "billing" });
    expect((await http("GET", "/api/v1/jobs")).json.jobs[0].id).toBe(job.id);
  });

  it("answers queries while a sync runs: the sync waits on another writer, searches answer from the committed index", async () => {
    services.web.write({ "src/profile.ts": "export function loadProfile(id: string) {\n  return fetch('/api/v1/profile/' + id);\n}\n" });
    const webIndex = join(services.web.root, ".contextsmith");
    const lock = await acquireWriteLock(webIndex, { wait: false, holder: "test" });
    let job: any;
    try {
      job = (await http("POST", "/api/v1/repos/web/sync", {})).json.job;
      // Asked again while it waits: the same job.
      expect((await http("POST", "/api/v1/repos/web/sync", {})).json.job.id).toBe(job.id);
      await new Promise((r) => setTimeout(r, 300));
      const answers = await Promise.all(Array.from({ length: 8 }, () => http("POST", "/api/v1/search", { query: "cart total", repos: ["web"] })));
      for (const a of answers) expect(a.status).toBe(200);
      expect(answers[0]!.json.results[0].qualifiedName).toBe("cartTotal");
      expect((await http("GET", `/api/v1/jobs/${job.id}`)).json.job.state).toBe("running");
      expect(answers.some((a) => a.json.results.some((r: any) => r.qualifiedName === "loadProfile"))).toBe(false);
    } finally {
      lock.release();
    }
    const done = await waitForJob(job.id);
    expect(done).toMatchObject({ state: "done", result: { repo: "web", ok: true, parsed: 1 } });
    const after = await http("POST", "/api/v1/search", { query: "load profile", repos: ["web"] });
    expect(after.json.results[0].qualifiedName).toBe("loadProfile");
  });

  it("answers the API map of a scope, with why a call reaches nothing", async () => {
    const { status, json } = await http("GET", "/api/v1/api-map?repos=web,auth");
    expect(status).toBe(200);
    expect(json.scope.map((p: any) => p.repo)).toEqual(["web", "auth"]);
    // Through the wrapper `apiClient.post` (its method, the caller's URL).
    expect(json.calls).toContainEqual(
      expect.objectContaining({ repo: "web", method: "POST", url: "/api/v1/auth/login", pattern: "/api/v1/auth/login", file: "src/login.ts", line: 5, symbol: "submitLogin", targets: [], why: "no routes in the scope" }),
    );
    expect((await http("GET", "/api/v1/api-map?unmatched=maybe")).status).toBe(400);
  });

  it("reports the models and unloads them", async () => {
    const status = await http("GET", "/api/v1/models/status");
    expect(status.status).toBe(200);
    expect(status.json.repos.map((r: any) => r.repo)).toEqual(["web", "auth", "schema"]);
    expect(status.json.policy.provider).toBe("local");
    expect((await http("POST", "/api/v1/models/unload")).json).toEqual({ unloaded: [] });
  });

  it("describes itself: an OpenAPI document naming every route", async () => {
    const { json } = await http("GET", "/api/v1/openapi.json");
    expect(json.openapi).toBe("3.1.0");
    for (const path of ["/api/v1/search", "/api/v1/context", "/api/v1/repos", "/api/v1/repos/{name}", "/api/v1/repos/{name}/sync", "/api/v1/repos/{name}/files/{path}", "/api/v1/relations", "/api/v1/groups/{group}/repos/{name}", "/api/v1/jobs/{id}", "/api/v1/jobs/{id}/events", "/api/v1/models/status", "/api/v1/models/unload"]) {
      expect(json.paths, path).toHaveProperty([path]);
    }
    expect(json.paths["/api/v1/search"].post.requestBody.content["application/json"].schema.required).toEqual(["query"]);
    expect(json.paths["/api/v1/repos/{name}/files/{path}"].get.parameters.map((p: any) => p.name)).toEqual(["name", "path", "start", "end"]);
  });

  it("answers MCP over Streamable HTTP at /mcp: the SDK's client lists the tools and searches", async () => {
    const client = new Client({ name: "contextsmith-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("search_codebases");
      const result = (await client.callTool({ name: "search_codebases", arguments: { query: "open session" } })) as { content: Array<{ text: string }> };
      expect(result.content[0]!.text).toContain("open_session");
    } finally {
      await client.close();
    }
    // Stateless: no stream to open, no session to end.
    const get = await fetch(`${server.url}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

describe("serve --http: jobs and the repositories they work on", () => {
  it("an add waiting on another writer: asked again it is the same job, from another source 409; removing the repository cancels it; queries leave it out meanwhile", async () => {
    const slow = TempRepo.create({ "slow/thing.py": "def slow_thing():\n    return 1\n" }, { git: true });
    mkdirSync(slow.path(".contextsmith"));
    const lock = await acquireWriteLock(slow.path(".contextsmith"), { wait: false, holder: "test" });
    try {
      const first = (await http("POST", "/api/v1/repos", { name: "slow", source: slow.root })).json.job;
      for (let i = 0; i < 100 && (await http("GET", `/api/v1/jobs/${first.id}`)).json.job.state !== "running"; i++) await new Promise((r) => setTimeout(r, 20));
      expect((await http("POST", "/api/v1/repos", { name: "slow", source: slow.root })).json.job.id).toBe(first.id);
      const other = await http("POST", "/api/v1/repos", { name: "slow", source: extra.root });
      expect(other.status).toBe(409);
      expect(other.json.error.code).toBe("ALREADY_EXISTS");
      // Registered, not indexed yet: queries answer without it, and say why.
      for (let i = 0; i < 100 && !(await http("GET", "/api/v1/repos")).json.repos.some((r: any) => r.name === "slow"); i++) await new Promise((r) => setTimeout(r, 20));
      const search = await http("POST", "/api/v1/search", { query: "open session" });
      expect(search.status).toBe(200);
      expect(search.json.notices.join("\n")).toMatch(/slow left out: it is being indexed in the background/);
      expect((await http("DELETE", "/api/v1/repos/slow")).status).toBe(200);
    } finally {
      lock.release();
    }
    expect(await waitForJob((await http("GET", "/api/v1/jobs")).json.jobs.find((j: any) => j.repos[0] === "slow").id)).toMatchObject({ state: "failed", error: { code: "ABORTED" } });
    expect((await http("GET", "/api/v1/repos")).json.repos.map((r: any) => r.name)).not.toContain("slow");
    slow.dispose();
  });

  it("a path or a name too long for an index key is 400, not an error of the server", async () => {
    expect((await http("GET", `/api/v1/repos/auth/files/${"a/".repeat(3000)}x.py`)).status).toBe(400);
    expect((await http("GET", `/api/v1/repos/auth/callers/${"x".repeat(8000)}`)).status).toBe(400);
    expect((await http("GET", `/api/v1/repos/auth/symbols/${"é".repeat(600)}`)).status).toBe(400);
  });
});

describe("serve --http: app.request() and the socket answer alike", () => {
  it("every read endpoint gives the same answer without a socket", async () => {
    const reads: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/health"],
      ["GET", "/api/v1/repos"],
      ["GET", "/api/v1/groups"],
      ["GET", "/api/v1/relations?repo=auth"],
      ["GET", "/api/v1/jobs"],
      ["GET", "/api/v1/models/status"],
      ["GET", "/api/v1/repos/auth/files/auth/login.py?start=1&end=3"],
      ["GET", "/api/v1/repos/auth/symbols/login"],
      ["GET", "/api/v1/repos/auth/callers/open_session"],
      ["GET", "/api/v1/repos/auth/callees/login"],
      ["GET", "/api/v1/repos/auth/impact/open_session"],
      ["POST", "/api/v1/search", { query: "user record", repos: ["schema"] }],
      ["POST", "/api/v1/context", { task: "check the password of a user record", budget: 600, repos: ["schema"] }],
      ["GET", "/api/v1/openapi.json"],
      ["GET", "/api/v1/api-map?repos=web&unmatched=true"],
      ["GET", "/api/v1/repos/auth/files/etc/passwd"],
    ];
    for (const [method, path, body] of reads) {
      const socket = await http(method, path, body);
      const local = await server.app.request(path, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { host: "127.0.0.1" } });
      expect(local.status, path).toBe(socket.status);
      const answer = (await local.json()) as { repos?: Array<{ headCommit?: unknown }> };
      expect(answer, path).toEqual(socket.json);
    }
  });

  it("the CLI serves until it is stopped, and exits 0", async () => {
    let url = "";
    const { child, done } = startCli(["serve", "--http", "127.0.0.1:0", "--path", services.schema.root], (line) => {
      url ||= /at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] ?? "";
    });
    for (let i = 0; i < 200 && !url; i++) await new Promise((r) => setTimeout(r, 50));
    const health = (await (await fetch(`${url}/api/v1/health`)).json()) as { mode: string; repos: number };
    expect(health).toMatchObject({ mode: "repository", repos: 1 });
    const found = (await (await fetch(`${url}/api/v1/search`, { method: "POST", body: JSON.stringify({ query: "user record check password" }) })).json()) as { results: Array<{ qualifiedName: string }> };
    expect(found.results.map((r) => r.qualifiedName)).toContain("UserRecord.check_password");
    child.kill("SIGTERM");
    expect((await done).status).toBe(0);
  });
});

describe("serve --http: bad requests get one error shape, never a stack trace", () => {
  it("bad JSON, wrong types, unknown fields, oversized bodies, unknown routes and methods", async () => {
    const cases: Array<[string, string, unknown, number]> = [
      ["POST", "/api/v1/search", "{not json", 400],
      ["POST", "/api/v1/search", { query: 42 }, 400],
      ["POST", "/api/v1/search", { query: "x", limit: 1e9 }, 400],
      ["POST", "/api/v1/search", { query: "x", evil: true }, 400],
      ["POST", "/api/v1/context", { task: "x", budget: -1 }, 400],
      ["POST", "/api/v1/context", { task: "x".repeat(100_001) }, 400],
      ["GET", "/api/v1/nothing", undefined, 404],
      ["PUT", "/api/v1/search", { query: "x" }, 405],
      ["POST", "/api/v1/search", { query: "x", repos: ["ghost"] }, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const answer = await http(method, path, body);
      expect(answer.status, `${method} ${path} ${String(body).slice(0, 40)}`).toBe(status);
      expect(Object.keys(answer.json)).toEqual(["error"]);
      expect(typeof answer.json.error.code).toBe("string");
      expect(answer.json.error.message).not.toMatch(/\n\s+at /);
      if (status === 405) expect(answer.headers.get("allow")).toBe("POST");
    }
  });

  it("answers the same through app.request() without a socket", async () => {
    const res = await server.app.request("/api/v1/health", { headers: { host: "127.0.0.1" } });
    expect(await res.json()).toMatchObject({ ok: true, mode: "workspace", repos: 3 });
    const bad = await server.app.request("/api/v1/search", { method: "POST", body: "[]", headers: { host: "localhost" } });
    expect(bad.status).toBe(400);
    // An oversized body is refused before it is read (over a socket the server then closes the connection).
    const big = await server.app.request("/api/v1/search", { method: "POST", body: JSON.stringify({ query: "x".repeat(2 * 1024 * 1024) }), headers: { host: "localhost", "content-type": "application/json" } });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe("PAYLOAD_TOO_LARGE");
  });
});

describe("serve --http: the gate", () => {
  it("refuses a DNS-rebinding Host and a page of another origin; allows its own pages", async () => {
    // fetch() may not set Host: a raw request does, as a browser does for a rebinding name.
    expect(await rawStatus("/api/v1/health", "evil.example")).toBe(403);
    expect(await rawStatus("/api/v1/health", "127.0.0.1.nip.io:80")).toBe(403);
    expect(await rawStatus("/api/v1/health", `localhost:${server.port}`)).toBe(200);
    expect((await http("POST", "/api/v1/search", { query: "x" }, { origin: "http://evil.example" })).status).toBe(403);
    // Another server of this machine (another port) is another origin.
    expect((await http("POST", "/api/v1/search", { query: "x" }, { origin: "http://localhost:3000" })).status).toBe(403);
    expect((await http("POST", "/api/v1/search", { query: "login" }, { origin: server.url })).status).toBe(200);
    const ws = await http("GET", "/api/v1/health", undefined, { origin: server.url });
    expect(ws.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("binds off loopback only with a token, and then wants it on every request", async () => {
    await expect(serveHttp({ listen: "0.0.0.0:0", workspace: true, dataDir, uiDir: null, log: () => undefined })).rejects.toThrow(/token/);
    await expect(serveHttp({ listen: "127.0.0.1:0", workspace: false, root: services.web.root, token: "short", uiDir: null, log: () => undefined })).rejects.toThrow(/16 characters/);
    const token = "t0ken-for-the-tests-0123456789";
    const guarded = await serveHttp({ listen: "127.0.0.1:0", workspace: false, root: services.web.root, token, corsOrigins: ["http://tool.example"], uiDir: null, log: () => undefined });
    try {
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${guarded.url}${path}`, { headers, redirect: "manual" });
      expect((await get("/api/v1/health")).status).toBe(401);
      expect((await get("/api/v1/health", { authorization: "Bearer wrong-token-wrong-token-00" })).status).toBe(401);
      expect((await get("/api/v1/health", { authorization: `Bearer ${token}` })).status).toBe(200);
      // The UI's login: the token moves into a cookie for this server only, and out of the address bar.
      const login = await get(`/?token=${token}`);
      expect(login.status).toBe(303);
      const cookie = login.headers.get("set-cookie")!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      expect((await get("/api/v1/health", { cookie: cookie.split(";")[0]! })).status).toBe(200);
      expect((await get("/?token=nope")).status).toBe(401);
      // CORS only for the configured origin (and the preflight answers without a token).
      const preflight = await fetch(`${guarded.url}/api/v1/search`, { method: "OPTIONS", headers: { origin: "http://tool.example", "access-control-request-method": "POST" } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("http://tool.example");
      const cors = await get("/api/v1/health", { origin: "http://tool.example", authorization: `Bearer ${token}` });
      expect(cors.headers.get("access-control-allow-origin")).toBe("http://tool.example");
      expect((await get("/api/v1/health", { origin: "http://other.example", authorization: `Bearer ${token}` })).status).toBe(403);
      // One repository served: changes are refused with what to run instead.
      const body = await (await get("/api/v1/repos", { authorization: `Bearer ${token}` })).json();
      expect(body).toMatchObject({ editable: false, repos: [{ kind: "local", path: services.web.root }] });
      const add = await fetch(`${guarded.url}/api/v1/groups`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "g", repos: [] }) });
      expect(add.status).toBe(400);
      expect(((await add.json()) as { error: { message: string } }).error.message).toMatch(/--workspace/);
    } finally {
      await guarded.close();
    }
  });

  it("a second server on the same data folder fails at once; a port in use is said as such", async () => {
    await expect(serveHttp({ listen: "127.0.0.1:0", workspace: true, dataDir, uiDir: null, log: () => undefined })).rejects.toMatchObject({ code: "LOCKED" });
    await expect(serveHttp({ listen: `127.0.0.1:${server.port}`, workspace: false, root: services.web.root, uiDir: null, log: () => undefined })).rejects.toThrow(/in use/);
    await expect(serveHttp({ listen: "localhost:99999", workspace: false, root: services.web.root, uiDir: null, log: () => undefined })).rejects.toThrow(/HOST:\]PORT/);
  });
});
