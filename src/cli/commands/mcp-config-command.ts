import { fileURLToPath } from "node:url";
import type { Argv } from "yargs";
import { MCP_CLIENTS, mcpConfig, type McpClient } from "../../mcp/config.js";
import type { CliIO } from "../io.js";

interface McpConfigArgs {
  client?: McpClient;
  path: string;
  workspace: boolean;
  "data-dir"?: string;
  name: string;
  json: boolean;
}

/** `ctxsmith mcp-config [client]`: the snippet that registers the server with an agent. */
export function mcpConfigCommand(io: CliIO) {
  return {
    command: "mcp-config [client]",
    describe: `Print the MCP setup for an agent (${MCP_CLIENTS.join(", ")}), with absolute paths`,
    builder: (y: Argv) =>
      y
        .positional("client", { choices: MCP_CLIENTS, describe: "The agent; all of them when left out" })
        .option("path", { alias: "p", type: "string", default: ".", describe: "Repository the server serves" })
        .option("workspace", { type: "boolean", default: false, describe: "Serve the whole workspace (serve --workspace) instead of one repository" })
        .option("data-dir", { type: "string", describe: "The workspace's data folder (with --workspace; default as serve finds it)" })
        .option("name", { type: "string", default: "contextsmith", describe: "Name of the server in the agent's configuration" })
        .option("json", { type: "boolean", default: false, describe: "Print { client, title, where, text } objects" }),
    handler: async (args: McpConfigArgs) => {
      // The registry's module loads only here: other commands never pay for it at start-up.
      const { resolveDataDir } = await import("../../workspace/registry.js");
      // This very script (the bundled CLI) run by this very Node: works from any directory and
      // without a global install.
      const serveArgs = args.workspace
        ? // The agent may start the server without this shell's CTXSMITH_DATA_DIR: name the folder.
          ["serve", "--workspace", "--data-dir", resolveDataDir(args["data-dir"] === undefined ? undefined : io.resolvePath(args["data-dir"]))]
        : ["serve", "--path", io.resolvePath(args.path)];
      const server = { name: args.name, command: process.execPath, args: [fileURLToPath(import.meta.url), ...serveArgs] };
      const snippets = (args.client ? [args.client] : MCP_CLIENTS).map((client) => mcpConfig(client, server));
      if (args.json) return void io.stdout.write(`${JSON.stringify({ snippets })}\n`);
      io.stdout.write(snippets.map((s) => `## ${s.title}\n${s.where}\n\n${s.text}`).join("\n"));
    },
  };
}
