import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "./cli.js";

/** Text of a tool call's answer, and whether it is a tool error. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; isError?: boolean };
  return { text: result.content.map((c) => c.text).join("\n"), isError: result.isError === true };
}

/**
 * An SDK client connected to `ctxsmith ARGS…` over stdio, its stderr handed to `onStderr`. The SDK
 * starts servers with a minimal environment: the tests' model settings are passed on.
 */
export async function connectCli(args: string[], onStderr: (text: string) => void): Promise<Client> {
  const env = { ...getDefaultEnvironment(), CTXSMITH_OFFLINE: "1", CTXSMITH_CACHE_DIR: process.env.CTXSMITH_CACHE_DIR ?? "" };
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, ...args], stderr: "pipe", env });
  transport.stderr?.on("data", (d: Buffer) => onStderr(d.toString()));
  const client = new Client({ name: "contextsmith-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}
