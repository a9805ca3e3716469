import { rmSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

let repo: TempRepo | undefined;
let client: Client | undefined;

afterAll(async () => {
  await client?.close();
  repo?.dispose();
});

async function call(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client!.callTool({ name, arguments: args })) as { content: Array<{ text: string }> };
  return result.content.map((c) => c.text).join("\n");
}

describe("ctxsmith serve after its index is rebuilt", () => {
  it("answers from the new index: the folder deleted, a file added, the next answer includes it", async () => {
    repo = TempRepo.create({ "shop/cart.py": "def add_item(cart, item):\n    cart.append(item)\n" }, { git: true });
    const env = { ...getDefaultEnvironment(), CTXSMITH_OFFLINE: "1", CTXSMITH_CACHE_DIR: process.env.CTXSMITH_CACHE_DIR ?? "" };
    client = new Client({ name: "contextsmith-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--path", repo.root], stderr: "pipe", env }));
    expect(await call("find_symbol", { name: "add_item" })).toContain("shop/cart.py");

    rmSync(join(repo.root, ".contextsmith"), { recursive: true, force: true });
    repo.write({ "shop/checkout.py": "def checkout(cart):\n    return sum(cart)\n" });
    expect(await call("reindex")).toContain("Index up to date: 2 files");
    expect(await call("find_symbol", { name: "checkout" })).toContain("shop/checkout.py");
    expect(await call("get_context", { task: "checkout sums the cart", budget_tokens: 500 })).toContain("def checkout(cart):");
  });
});
