import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ApiContext } from "./context.js";
import { HttpError } from "./errors.js";
import { handleMcp } from "./mcp.js";
import { openApiDocument } from "./openapi.js";
import { mount } from "./route.js";
import { codeRoutes } from "./routes/code.js";
import { queryRoutes } from "./routes/query.js";
import { repoRoutes } from "./routes/repos.js";
import { mountEvents, serverRoutes } from "./routes/server.js";
import { gate, type SecurityOptions } from "./security.js";
import type { UiAssets } from "./ui-assets.js";

export const API_PREFIX = "/api/v1";
/** The largest request body accepted (a task of 100,000 characters fits, with room). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What pages of the UI may load and reach: this server only, nothing inline, nothing framed. */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export interface AppOptions {
  security: SecurityOptions;
  ui: UiAssets;
}

/**
 * The HTTP server's application: the REST API under `/api/v1` (and its OpenAPI document), MCP over
 * Streamable HTTP at `/mcp`, and the web UI at `/`, behind one gate (Host, Origin, token) and one
 * error shape. Every handler is a thin adapter over the workspace.
 */
export function createApp(ctx: ApiContext, options: AppOptions): Hono {
  const app = new Hono();
  const routes = [...serverRoutes(ctx), ...queryRoutes(ctx), ...repoRoutes(ctx), ...codeRoutes(ctx)];
  const openapi = openApiDocument(routes, API_PREFIX, ctx.version);

  app.onError((error, c) => {
    const err = HttpError.from(error);
    if (err.status >= 500) ctx.log(`contextsmith: ${c.req.method} ${c.req.path}: ${err.code}: ${err.message}`);
    return c.json(err.body(), err.status as 500);
  });
  app.notFound((c) => c.json(new HttpError("NOT_FOUND", `No ${c.req.method} ${c.req.path} here: see ${API_PREFIX}/openapi.json.`).body(), 404));

  app.use("*", async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", c.res.headers.get("Cache-Control") ?? "no-store");
  });
  app.use("*", gate(options.security));
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new HttpError("PAYLOAD_TOO_LARGE", `The request body is over ${MAX_BODY_BYTES / 1024} KiB.`);
      },
    }),
  );

  app.get(`${API_PREFIX}/openapi.json`, (c) => c.json(openapi));
  mount(app, API_PREFIX, routes);
  mountEvents(app, API_PREFIX, ctx);
  app.all("/mcp", (c) => handleMcp(c.req.raw, ctx));

  const page = options.ui.get("index.html");
  app.get("/", (c) => {
    if (!page) throw new HttpError("NOT_FOUND", "The web UI is not built into this copy: run `npm run build`. The REST API is at /api/v1.");
    return c.body(page.body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": page.type, "Content-Security-Policy": CSP, "Cache-Control": "no-cache" });
  });
  app.get("/ui/:file", (c) => {
    const asset = options.ui.get(c.req.param("file"));
    if (!asset || c.req.param("file") === "index.html") throw new HttpError("NOT_FOUND", `No UI file ${c.req.param("file")}.`);
    return c.body(asset.body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": asset.type, "Content-Security-Policy": CSP, "Cache-Control": "no-cache" });
  });
  // Anything else on the API answers with the one error shape; a wrong method is said as such.
  app.all(`${API_PREFIX}/*`, (c) => {
    throw new HttpError(routes.some((r) => matches(r.path, c.req.path.slice(API_PREFIX.length))) ? "METHOD_NOT_ALLOWED" : "NOT_FOUND", `No ${c.req.method} ${c.req.path} here: see ${API_PREFIX}/openapi.json.`);
  });
  return app;
}

/** Whether a concrete path fits a route's pattern (for telling a wrong method from a wrong path). */
function matches(pattern: string, path: string): boolean {
  const re = new RegExp(`^${pattern.replace(/:[A-Za-z_]+\{\.\+\}/g, ".+").replace(/:[A-Za-z_]+/g, "[^/]+")}$`);
  return re.test(path);
}
