import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createWorkspaceMcpServer } from "../mcp/workspace-server.js";
import type { ApiContext } from "./context.js";

/**
 * MCP over Streamable HTTP, stateless: each request gets its own server and transport over the one
 * workspace (the tools of `serve --workspace`), and a JSON answer. Nothing is kept between
 * requests, so no session can leak or pile up; the Host, Origin and token checks ran before.
 */
export async function handleMcp(request: Request, ctx: ApiContext): Promise<Response> {
  const server = createWorkspaceMcpServer({ workspace: ctx.workspace, log: ctx.log, ...(ctx.pending ? { pending: ctx.pending } : {}) }, ctx.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    void server.close();
  }
}
