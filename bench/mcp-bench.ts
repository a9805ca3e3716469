/**
 * MCP server benchmark: time from spawning `ctxsmith serve` to the answer to `initialize`, and
 * tool-call latencies through the SDK's client over stdio (the first call, then warm medians).
 *
 *   npm run build
 *   node dist/bench/mcp-bench.js --repo /path/to/indexed/checkout --task-file FILE --symbol NAME [--runs 5] [--out FILE]
 */
import { appendFileSync, readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { median } from "../src/bench/summary.js";
import { benchArgs } from "./args.js";

const opt = benchArgs("mcp-bench --repo PATH --task-file FILE --symbol NAME [--runs N] [--out FILE]", ["repo", "task-file", "symbol"]);
const repo = opt("repo")!;
const task = readFileSync(opt("task-file")!, "utf8");
const symbol = opt("symbol")!;
const runs = Number(opt("runs", "5"));
const out = opt("out");
const cli = fileURLToPath(new URL("../ctxsmith.js", import.meta.url));

async function start(): Promise<{ client: Client; ms: number }> {
  const t0 = performance.now();
  const client = new Client({ name: "mcp-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, "serve", "--path", repo], stderr: "ignore" }));
  return { client, ms: performance.now() - t0 };
}

async function timed(client: Client, name: string, args: Record<string, unknown>): Promise<number> {
  const t0 = performance.now();
  const result = (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }> };
  if (result.isError) throw new Error(`${name} failed: ${result.content[0]?.text}`);
  return performance.now() - t0;
}

const ready: number[] = [];
const firstContext: number[] = [];
for (let i = 0; i < runs; i++) {
  const { client, ms } = await start();
  ready.push(ms);
  firstContext.push(await timed(client, "get_context", { task, budget_tokens: 4000 }));
  await client.close();
}

const { client } = await start();
await timed(client, "get_context", { task, budget_tokens: 4000 });
const warm: Record<string, number[]> = { get_context: [], find_symbol: [], callers: [], impact: [], search: [] };
for (let i = 0; i < 10; i++) {
  warm.get_context!.push(await timed(client, "get_context", { task, budget_tokens: 4000 }));
  warm.find_symbol!.push(await timed(client, "find_symbol", { name: symbol }));
  warm.callers!.push(await timed(client, "callers", { name: symbol }));
  warm.impact!.push(await timed(client, "impact", { name: symbol, depth: 3 }));
  warm.search!.push(await timed(client, "search", { query: task.slice(0, 200) }));
}
await client.close();

const ms = (x: number): string => `${Math.round(x)} ms`;
const report = `## MCP server: ${basename(repo)} (${new Date().toISOString().slice(0, 10)})

Machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Medians; each call through the SDK's client over stdio (JSON-RPC and the freshness check included).

| measure | value |
|---|---|
| spawn → \`initialize\` answered (${runs} runs) | ${ms(median(ready))} (target < 1 s) |
| first \`get_context\` after start, 4,000 tokens | ${ms(median(firstContext))} |
${Object.entries(warm).map(([name, times]) => `| ${name}, warm (10 calls) | ${ms(median(times))} |`).join("\n")}
`;
process.stdout.write(report);
if (out) appendFileSync(out, `${report}\n`);
