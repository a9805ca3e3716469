/** The MCP clients `ctxsmith mcp-config` writes a snippet for. */
export const MCP_CLIENTS = ["claude", "cursor", "windsurf", "codex", "vscode"] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** How a client starts the server: absolute paths, so it works from any directory. */
export interface ServerCommand {
  name: string;
  command: string;
  args: string[];
}

/** A snippet and where it goes. */
export interface ConfigSnippet {
  client: McpClient;
  title: string;
  where: string;
  text: string;
}

/** The exact configuration snippet for one client. */
export function mcpConfig(client: McpClient, server: ServerCommand): ConfigSnippet {
  const entry = { command: server.command, args: server.args };
  switch (client) {
    case "claude":
      return {
        client,
        title: "Claude Code",
        where: "Run in a terminal (add --scope user to use it in every project):",
        text: `claude mcp add ${server.name} -- ${[server.command, ...server.args].map(shellQuote).join(" ")}\n`,
      };
    case "cursor":
      return { client, title: "Cursor", where: "In .cursor/mcp.json of the repository (or ~/.cursor/mcp.json for every project):", text: json({ mcpServers: { [server.name]: entry } }) };
    case "windsurf":
      return { client, title: "Windsurf", where: "In ~/.codeium/windsurf/mcp_config.json:", text: json({ mcpServers: { [server.name]: entry } }) };
    case "codex":
      return {
        client,
        title: "Codex CLI",
        where: "In ~/.codex/config.toml:",
        text: `[mcp_servers.${tomlKey(server.name)}]\ncommand = ${tomlString(server.command)}\nargs = [${server.args.map(tomlString).join(", ")}]\n`,
      };
    case "vscode":
      return { client, title: "VS Code", where: "In .vscode/mcp.json of the repository:", text: json({ servers: { [server.name]: { type: "stdio", ...entry } } }) };
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Quotes a word for POSIX shells when it needs it. */
function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A TOML basic string. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}
