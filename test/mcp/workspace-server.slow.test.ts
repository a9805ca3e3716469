import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/cli.js";
import { callTool } from "../helpers/mcp.js";
import { makeServices } from "../helpers/services.js";

const TOOL_NAMES = ["get_context", "search_codebases", "get_symbol_definition", "get_call_hierarchy", "get_api_map", "list_repositories", "get_repository_relations", "manage_repository_relations"];

const services = makeServices();
const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-mcp-"));
const cliEnv = { CTXSMITH_DATA_DIR: dataDir };
let client: Client;
let stderr = "";

const call = (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args);

beforeAll(async () => {
  for (const [name, repo] of Object.entries(services)) expect(runCli(["repo", "add", name, repo.root], { env: cliEnv }).status).toBe(0);
  expect(runCli(["relation", "add", "web", "auth"], { env: cliEnv }).status).toBe(0);
  // A server killed earlier left its instance lock: the next one takes it over.
  writeFileSync(join(dataDir, "instance.lock"), JSON.stringify({ pid: 2147483646, host: hostname(), startedAt: Date.now() - 60_000 }));
  const env = { ...getDefaultEnvironment(), CTXSMITH_OFFLINE: "1", CTXSMITH_CACHE_DIR: process.env.CTXSMITH_CACHE_DIR ?? "" };
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--workspace", "--data-dir", dataDir], stderr: "pipe", env });
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  client = new Client({ name: "contextsmith-test", version: "1.0.0" });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  rmSync(dataDir, { recursive: true, force: true });
  Object.values(services).forEach((r) => r.dispose());
});

describe("ctxsmith serve --workspace (MCP, driven by the SDK's client)", () => {
  it("lists the workspace tools with their schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) expect(tool.description?.length).toBeGreaterThan(40);
    expect(tools.find((t) => t.name === "get_call_hierarchy")!.inputSchema.required).toEqual(["name", "direction"]);
    expect(stderr).toContain("serving the workspace");
    const owner = JSON.parse(readFileSync(join(dataDir, "instance.lock"), "utf8"));
    expect(owner.pid).not.toBe(2147483646);
  });

  it("a second workspace server on the data folder fails at once, naming the owner", () => {
    const second = runCli(["serve", "--workspace", "--data-dir", dataDir]);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/Another workspace server \(pid \d+/);
    expect(second.stderr).toContain("--allow-multi-instance");
  });

  it("get_context packs code of several repositories into one budget", async () => {
    const { text, isError } = await call("get_context", { task: "login raises PermissionError for bad credentials; UserRecord.check_password", budget_tokens: 1500 });
    expect(isError).toBe(false);
    expect(text).toContain("### auth: auth/login.py · lines");
    expect(text).toContain("### schema: schema/user.py · lines");
    const scoped = await call("get_context", { task: "submitLogin posts the login form", repos: ["web"], expand: "upstream" });
    expect(scoped.text).toContain("### web: src/login.ts");
    expect(scoped.text).not.toContain("### schema:");
  });

  it("search_codebases and the navigation tools answer with the repository", async () => {
    const search = await call("search_codebases", { query: "submitLogin", repos: ["web"], expand: "upstream", expand_depth: 1 });
    expect(search.text).toContain("web: src/login.ts:4  function submitLogin");
    expect(search.text).toContain("Searched: web, auth (upstream, 1 hop)");
    const definition = await call("get_symbol_definition", { name: "UserRecord" });
    expect(definition.text).toMatch(/## schema\n[^]*schema\/user\.py:1-9/);
    const callers = await call("get_call_hierarchy", { name: "open_session", direction: "callers" });
    expect(callers.text).toContain("## auth");
    expect(callers.text).toContain("auth/login.py:8");
    // The API map: web's login request through its wrapper, and why it links nowhere (no service serves routes).
    const api = await call("get_api_map", { unmatched: true });
    expect(api.text).toContain("web  POST   /api/v1/auth/login  src/login.ts:5 in submitLogin\n      ✗ no routes in the scope");
    expect(api.text).toContain("Searched: web, auth, schema");
    const missing = await call("get_symbol_definition", { name: "NoSuchThing" });
    expect(missing).toMatchObject({ isError: true });
    const repos = await call("list_repositories");
    expect(repos.text).toMatch(/^web \(local\) .* · 3 files at [0-9a-f]{12}$/m);
  });

  it("manage_repository_relations changes groups and dependencies; a cycle is a tool error naming it", async () => {
    expect((await call("manage_repository_relations", { action: "add_dependency", from: "auth", to: "schema" })).text).toBe("auth depends on schema.");
    const cycle = await call("manage_repository_relations", { action: "add_dependency", from: "schema", to: "web" });
    expect(cycle.isError).toBe(true);
    expect(cycle.text).toContain("DEPENDENCY_CYCLE: schema → web would close a cycle: schema → web → auth → schema.");
    expect((await call("get_repository_relations", { repo: "auth" })).text).toBe("auth depends on: schema (1 hop)\nauth is depended on by: web (1 hop)");
    expect((await call("manage_repository_relations", { action: "create_group", group: "backend", repos: ["auth", "schema"] })).text).toBe("Group backend: auth, schema");
    const grouped = await call("search_codebases", { query: "UserRecord", groups: ["backend"] });
    expect(grouped.text).toContain("Searched: auth, schema");
    expect((await call("manage_repository_relations", { action: "add_to_group", group: "backend" })).text).toContain("add_to_group needs repos");
    expect((await call("manage_repository_relations", { action: "delete_group", group: "backend" })).text).toBe("Deleted group backend.");
    // What the server changed is in the registry the CLI reads.
    const shown = runCli(["relation", "show", "--json"], { env: cliEnv });
    expect(JSON.parse(shown.stdout)).toEqual({ repo: null, edges: [["web", "auth"], ["auth", "schema"]] });
  });

  it("a hostile scope is a tool error, not a crash", async () => {
    expect((await call("search_codebases", { query: "x", repos: ["../../etc"] })).text).toContain("No repository named ../../etc");
    expect((await call("search_codebases", { query: "x", groups: ["nope"] })).isError).toBe(true);
    expect((await call("get_context", { task: "x", expand_depth: -1 })).isError).toBe(true);
  });
});
