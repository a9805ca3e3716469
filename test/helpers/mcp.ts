import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** Text of a tool call's answer, and whether it is a tool error. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text: string }>; isError?: boolean };
  return { text: result.content.map((c) => c.text).join("\n"), isError: result.isError === true };
}
