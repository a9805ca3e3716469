import { rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { callTool, connectCli } from "../helpers/mcp.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON } from "../graph/fixtures.js";

const TOOL_NAMES = ["get_context", "search", "find_symbol", "callers", "callees", "impact", "related_files", "add_note", "overview", "get_api_map", "review_change", "reindex"];

let repo: TempRepo;
let client: Client;
let stderr = "";

const call = (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args);

beforeAll(async () => {
  // No index yet: the server builds it when the client connects.
  repo = TempRepo.create(PYTHON, { git: true });
  client = await connectCli(["serve", "--path", repo.root], (text) => (stderr += text));
});

afterAll(async () => {
  await client?.close();
  repo?.dispose();
});

describe("ctxsmith serve (MCP over stdio, driven by the SDK's client)", () => {
  it("lists the tools with descriptions and input schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe("object");
    }
    const context = tools.find((t) => t.name === "get_context")!;
    expect(context.inputSchema.required).toEqual(["task"]);
    expect(context.description).toContain("Start here");
  });

  it("get_context answers with the code for a task, within the budget", async () => {
    const { text, isError } = await call("get_context", { task: "StripeGateway charge sends the amount through retry", budget_tokens: 1500 });
    expect(isError).toBe(false);
    expect(text).toMatch(/### shop\/payments\.py/);
    expect(text).toContain("def charge(self, amount):");
    expect(stderr).toContain("index ready");
  });

  it("answers the navigation tools", async () => {
    expect((await call("search", { query: "charge card" })).text).toContain("shop/payments.py:19  function charge_card");
    expect((await call("find_symbol", { name: "StripeGateway.refund" })).text).toContain("shop/payments.py:15-16  method StripeGateway.refund");
    expect((await call("callers", { name: "charge_card" })).text).toContain("app/main.py:6  checkout");
    expect((await call("callees", { name: "StripeGateway.charge" })).text).toContain("Gateway.send (shop/payments.py:6)");
    const impact = await call("impact", { name: "retry", depth: 4 });
    expect(impact.text).toContain("tests to run: tests/test_payments.py");
    const related = await call("related_files", { path: "shop/util.py" });
    expect(related.text).toContain("imported by:\n  shop/payments.py");
    expect((await call("overview")).text).toMatch(/central files \(PageRank over imports and calls\):\n {2}\S+/);
    // The shop serves no HTTP: the map says so rather than answering empty.
    expect((await call("get_api_map")).text).toBe("No HTTP routes or requests found in the repository.");
    expect((await call("reindex")).text).toContain("Index up to date");
  });

  it("pins a note that get_context then shows", async () => {
    const added = await call("add_note", { text: "amounts are in cents", symbol: "Gateway.send" });
    expect(added.text).toMatch(/^Added note [0-9a-f]{8} on Gateway\.send/);
    const { text } = await call("get_context", { task: "Gateway send amount", budget_tokens: 1500 });
    expect(text).toContain("### Notes\n- shop/payments.py:Gateway.send: amounts are in cents");
  });

  it("sees an edit made between two calls", async () => {
    repo.write({ "shop/util.py": `${PYTHON["shop/util.py"]}\n\ndef exponential_backoff_delay(attempt):\n    return 2 ** attempt\n` });
    // Answers re-check the files at most every 2 s.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const { text } = await call("get_context", { task: "exponential backoff delay for an attempt", budget_tokens: 800 });
    expect(text).toContain("def exponential_backoff_delay(attempt):");
    expect((await call("find_symbol", { name: "exponential_backoff_delay" })).text).toContain("shop/util.py:9");
  });

  it("review_change reports the work tree's change against the default branch", async () => {
    repo.write({ "shop/payments.py": PYTHON["shop/payments.py"]!.replace("def charge_card(card, amount):", "def charge_card(card, amount, currency):") });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const { text, isError } = await call("review_change", { budget_tokens: 500 });
    expect(isError).toBe(false);
    expect(text).toContain("| signature changed | `charge_card` | `shop/payments.py:");
    expect(text).toContain("| added | `exponential_backoff_delay` | `shop/util.py:9` |");
    expect(text).toMatch(/`checkout` in `app\/main\.py:\d+`/);
    const hostile = await call("review_change", { base: "--upload-pack=touch /tmp/x" });
    expect(hostile).toMatchObject({ isError: true, text: expect.stringContaining("names no commit") });
  });

  it("refuses invalid and hostile arguments with a clear tool error, and keeps serving", async () => {
    const traversal = await call("related_files", { path: "../../etc/passwd" });
    expect(traversal).toMatchObject({ isError: true, text: expect.stringContaining("outside the repository") });
    const absolute = await call("related_files", { path: "/etc/passwd" });
    expect(absolute).toMatchObject({ isError: true, text: expect.stringContaining("outside the repository") });
    const huge = await call("get_context", { task: "charge", budget_tokens: 1_000_000_000 });
    expect(huge.isError).toBe(true);
    expect(huge.text).toMatch(/budget_tokens/);
    expect((await call("get_context", { task: "   " })).isError).toBe(true);
    expect((await call("get_context", {})).isError).toBe(true);
    expect(await call("find_symbol", { name: "charge_crd" })).toMatchObject({ isError: true, text: expect.stringContaining("Did you mean: charge_card") });
    expect((await call("add_note", { text: "x" })).text).toContain("exactly one of them");
    expect((await call("impact", { name: "retry", depth: 1000 })).isError).toBe(true);
    // Still serving.
    expect((await call("find_symbol", { name: "retry" })).isError).toBe(false);
  });

  it("answers from the index as it is while another process holds the index lock, naming changed files", async () => {
    const lock = join(repo.root, ".contextsmith", "write.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now() }));
    try {
      repo.write({ "shop/util.py": `${PYTHON["shop/util.py"]}\n# edited while locked\n` });
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const { text, isError } = await call("find_symbol", { name: "log_event" });
      expect(isError).toBe(false);
      expect(text).toContain("shop/util.py");
      expect(text).toContain("another process is indexing this repository");
      expect(text).toContain("Changed since indexed, re-read them: shop/util.py");
    } finally {
      rmSync(lock, { force: true });
    }
  });

  it("keeps stdout for the protocol: logs go to stderr", () => {
    expect(stderr).toContain("contextsmith: serving");
  });

  it("exits 0 when the client closes its stdin (it exited 13: nothing heard the input end)", () => {
    const r = runCli(["serve", "--path", repo.root], { input: "" });
    expect(r.stderr).toContain("contextsmith: serving");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
  });
});
