import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/core/version.js";
import { MCP_CLIENTS, mcpConfig } from "../../src/mcp/config.js";

const server = { name: "contextsmith", command: "/opt/node 22/bin/node", args: ["/home/me/ctxsmith/dist/ctxsmith.js", "serve", "--path", "/home/me/shop"] };

describe("mcp-config snippets", () => {
  it("gives Claude Code an add command with the paths shell-quoted", () => {
    expect(mcpConfig("claude", server).text).toBe(
      "claude mcp add contextsmith -- '/opt/node 22/bin/node' /home/me/ctxsmith/dist/ctxsmith.js serve --path /home/me/shop\n",
    );
  });

  it("gives Cursor and Windsurf an mcpServers block, VS Code a typed servers block", () => {
    const entry = { command: server.command, args: server.args };
    expect(JSON.parse(mcpConfig("cursor", server).text)).toEqual({ mcpServers: { contextsmith: entry } });
    expect(JSON.parse(mcpConfig("windsurf", server).text)).toEqual({ mcpServers: { contextsmith: entry } });
    expect(JSON.parse(mcpConfig("vscode", server).text)).toEqual({ servers: { contextsmith: { type: "stdio", ...entry } } });
  });

  it("gives Codex a TOML table", () => {
    expect(mcpConfig("codex", server).text).toBe(
      '[mcp_servers.contextsmith]\ncommand = "/opt/node 22/bin/node"\nargs = ["/home/me/ctxsmith/dist/ctxsmith.js", "serve", "--path", "/home/me/shop"]\n',
    );
  });

  it("says where each snippet goes", () => {
    for (const client of MCP_CLIENTS) expect(mcpConfig(client, server).where.length).toBeGreaterThan(10);
  });
});

describe("VERSION", () => {
  it("equals package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
