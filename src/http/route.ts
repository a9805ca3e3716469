import type { Context, Hono } from "hono";
import type { z } from "zod";
import { HttpError } from "./errors.js";

/** What a route's handler is given: its parsed body and query, its path parameters. */
export interface RouteInput<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  /** Cancelled when the client goes away. */
  signal: AbortSignal;
  c: Context;
}

/**
 * One endpoint of the REST API: its method and path (Hono's syntax, under `/api/v1`), the schemas of
 * its body, query and answer, and a thin handler. The app registers it (see {@link mount}) and the
 * OpenAPI document describes it from the same object.
 */
export interface Route<B = unknown, Q = unknown, R extends z.ZodType = z.ZodType> {
  method: "get" | "post" | "delete";
  path: string;
  summary: string;
  tag: string;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  /** Checks of the path parameters (their values stay strings). */
  params?: z.ZodType<Record<string, string>>;
  response: R;
  /** The status of a success (default 200). */
  status?: 200 | 201 | 202;
  /** The error codes it may answer with besides the common ones, for the document. */
  errors?: number[];
  /** Answers what its response schema accepts (checked by the compiler, and again before sending). */
  handler(input: RouteInput<B, Q>): Promise<z.input<R>> | z.input<R>;
}

/** A route, typed by its schemas. */
export function route<B = undefined, Q = undefined, R extends z.ZodType = z.ZodType>(spec: Route<B, Q, R>): Route {
  return spec as unknown as Route;
}

/**
 * Registers `routes` under `prefix`: the body is read as JSON and checked, the query checked, and
 * the answer checked against its schema before it is sent (what is not in the contract is not sent).
 */
export function mount(app: Hono, prefix: string, routes: readonly Route[]): void {
  for (const spec of routes) {
    app.on(spec.method.toUpperCase(), `${prefix}${spec.path}`, async (c) => {
      const body = spec.body ? parse(spec.body, await readJson(c), "body") : undefined;
      const query = spec.query ? parse(spec.query, c.req.query(), "query") : undefined;
      const params = c.req.param() as Record<string, string>;
      if (spec.params) parse(spec.params, params, "path");
      const result = await spec.handler({ body, query, params, signal: c.req.raw.signal, c });
      const checked = spec.response.safeParse(result);
      if (!checked.success) {
        const issue = checked.error.issues[0]!;
        throw new HttpError("INTERNAL", `The answer of ${spec.method.toUpperCase()} ${spec.path} broke its contract at ${issue.path.join(".") || "top level"}: ${issue.message}. Please report this.`);
      }
      return c.json(checked.data as object, spec.status ?? 200);
    });
  }
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HttpError("INVALID_ARGUMENT", `The request body is not JSON: ${(error as Error).message}`);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.length > 0 ? `${where}.${issue.path.join(".")}` : where;
  throw new HttpError("INVALID_ARGUMENT", `${at}: ${issue.message}`, { issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.map(String), message: i.message })) });
}
