import { z } from "zod";
import type { Route } from "./route.js";
import { ErrorResponse } from "./schemas.js";

const SSE_PATHS = {
  "/events": "Every job's changes as server-sent events (`event: job`, the job as data)",
  "/jobs/{id}/events": "One job's changes as server-sent events, ending when the job does",
} as const;

/** JSON Schema of a zod schema, for the request (`input`) or the answer (`output`). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

/** `/repos/:name/files/:path{.+}` → `/repos/{name}/files/{path}`, and its parameter names. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

/** The OpenAPI 3.1 document of the REST API, made from the routes' own schemas. */
export function openApiDocument(routes: readonly Route[], prefix: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const error = { description: "An error: `{error: {code, message, data?}}`", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  for (const r of routes) {
    const { path, params } = openApiPath(r.path);
    const parameters: unknown[] = params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    if (r.query instanceof z.ZodObject) {
      const shape = jsonSchema(r.query, "input") as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(shape.properties ?? {})) parameters.push({ name, in: "query", required: shape.required?.includes(name) ?? false, schema });
    }
    const responses: Record<string, unknown> = {
      [String(r.status ?? 200)]: { description: "Success", content: { "application/json": { schema: jsonSchema(r.response, "output") } } },
      "400": error,
      "404": error,
    };
    for (const status of r.errors ?? []) responses[String(status)] = error;
    (paths[`${prefix}${path}`] ??= {})[r.method] = {
      summary: r.summary,
      tags: [r.tag],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(r.body, "input") } } } } : {}),
      responses,
    };
  }
  for (const [path, summary] of Object.entries(SSE_PATHS)) {
    const { params } = openApiPath(path.replace(/\{(\w+)\}/g, ":$1"));
    paths[`${prefix}${path}`] = {
      get: {
        summary,
        tags: ["jobs"],
        ...(params.length > 0 ? { parameters: params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })) } : {}),
        responses: { "200": { description: "An event stream", content: { "text/event-stream": { schema: { type: "string" } } } }, "404": error },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "ContextSmith",
      version,
      description:
        "The local context engine's REST API: search and packed context across the repositories of a workspace, its repositories, groups and relations, code navigation, jobs and models. MCP over Streamable HTTP is at /mcp. With a token (required off loopback), send `Authorization: Bearer <token>`.",
    },
    servers: [{ url: "/" }],
    components: {
      schemas: { Error: jsonSchema(ErrorResponse, "output") },
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
    paths,
  };
}
