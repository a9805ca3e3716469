import { streamSSE } from "hono/streaming";
import type { Context, Hono } from "hono";
import type { ApiContext } from "../context.js";
import { HttpError } from "../errors.js";
import type { JobView } from "../jobs.js";
import { route } from "../route.js";
import { HealthResponse, JobAccepted, JobsResponse, ModelsResponse, UnloadResponse } from "../schemas.js";

export function serverRoutes(ctx: ApiContext) {
  const { workspace, jobs } = ctx;
  return [
    route({
      method: "get",
      path: "/health",
      tag: "server",
      summary: "Whether the server answers, its version, and how many repositories it serves",
      response: HealthResponse,
      handler: () => ({ ok: true as const, version: ctx.version, repos: workspace.repos().length, mode: ctx.editable ? ("workspace" as const) : ("repository" as const) }),
    }),
    route({
      method: "get",
      path: "/jobs",
      tag: "jobs",
      summary: "The jobs of this server (clones, syncs), newest first; finished ones are kept for a while",
      response: JobsResponse,
      handler: () => ({ jobs: jobs.list() }),
    }),
    route({
      method: "get",
      path: "/jobs/:id",
      tag: "jobs",
      summary: "One job: its state, its latest progress, its result or error. Its progress streams at /jobs/{id}/events (server-sent events)",
      response: JobAccepted,
      handler({ params }) {
        const job = jobs.get(params.id!);
        if (!job) throw new HttpError("NOT_FOUND", `No job ${params.id} (finished jobs are kept for a while, then forgotten).`);
        return { job };
      },
    }),
    route({
      method: "get",
      path: "/models/status",
      tag: "models",
      summary: "The models of this process (loaded, operations in flight), the configured policy, and each repository's vectors",
      response: ModelsResponse,
      handler: () => workspace.models(),
    }),
    route({
      method: "post",
      path: "/models/unload",
      tag: "models",
      summary: "Releases the models now; 409 BUSY while an operation runs on one",
      response: UnloadResponse,
      errors: [409],
      async handler() {
        return { unloaded: await workspace.unload() };
      },
    }),
  ];
}

/**
 * The server-sent-event streams: `/events` (every job's changes) and `/jobs/:id/events` (one job's,
 * ending when it does). Each event is `job`, its data the job as `GET /jobs/:id` shows it.
 */
export function mountEvents(app: Hono, prefix: string, ctx: ApiContext): void {
  const stream = (c: Context, only: string | null) =>
    streamSSE(c, async (sse) => {
      const queue: JobView[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = ctx.jobs.subscribe((job) => {
        if (only !== null && job.id !== only) return;
        queue.push(job);
        wake?.();
      });
      sse.onAbort(() => wake?.());
      try {
        const first = only === null ? ctx.jobs.list().filter((j) => j.state === "queued" || j.state === "running") : [ctx.jobs.get(only)!];
        for (const job of first) await sse.writeSSE({ event: "job", data: JSON.stringify(job) });
        if (only !== null && (first[0]!.state === "done" || first[0]!.state === "failed")) return;
        while (!sse.aborted && !sse.closed) {
          if (queue.length === 0) {
            // A comment every 15 s keeps proxies from closing an idle stream.
            let timer: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, 15_000);
            });
            clearTimeout(timer);
            wake = null;
            if (queue.length === 0 && !sse.aborted) await sse.write(": keep-alive\n\n");
            continue;
          }
          const job = queue.shift()!;
          await sse.writeSSE({ event: "job", data: JSON.stringify(job) });
          if (only !== null && (job.state === "done" || job.state === "failed")) return;
        }
      } finally {
        unsubscribe();
      }
    });
  app.get(`${prefix}/events`, (c) => stream(c, null));
  app.get(`${prefix}/jobs/:id/events`, (c) => {
    const id = c.req.param("id");
    if (!ctx.jobs.get(id)) throw new HttpError("NOT_FOUND", `No job ${id}.`);
    return stream(c, id);
  });
}
