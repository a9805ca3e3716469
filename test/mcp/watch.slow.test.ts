import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { callTool, connectCli } from "../helpers/mcp.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON } from "../graph/fixtures.js";

let repo: TempRepo;
let client: Client;
let stderr = "";

/** Waits until the server's log has `text` (or fails after a while). */
async function logged(text: string, after = 0): Promise<void> {
  for (let waited = 0; !stderr.slice(after).includes(text); waited += 50) {
    if (waited > 20_000) throw new Error(`the server never logged "${text}":\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  repo = TempRepo.create(PYTHON, { git: true });
  client = await connectCli(["serve", "--watch", "--path", repo.root], (text) => (stderr += text));
});

afterAll(async () => {
  await client?.close();
  repo?.dispose();
});

describe("ctxsmith serve --watch", () => {
  it("indexes an edit as it happens, between answers, and answers with it", async () => {
    // The first answer waits for the first run, which builds the index.
    expect((await callTool(client, "find_symbol", { name: "charge_card" })).isError).toBe(false);
    await logged("contextsmith: watching");
    const mark = stderr.length;
    repo.write({ "shop/util.py": `${PYTHON["shop/util.py"]}\n\ndef backoff_delay(attempt):\n    return 2 ** attempt\n` });
    await logged("indexed 1 changed files (1 parsed, 0 removed)", mark);
    const { text, isError } = await callTool(client, "find_symbol", { name: "backoff_delay" });
    expect(isError).toBe(false);
    expect(text).toContain("shop/util.py");
  });

  it("is for one repository over stdio: with --workspace or --http it says what to run instead", () => {
    const r = runCli(["serve", "--watch", "--workspace"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("run `ctxsmith watch --workspace`");
  });
});
