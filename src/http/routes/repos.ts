import { ContextSmithError, type ErrorCode } from "../../core/errors.js";
import { SingleRepoRegistry } from "../../workspace/registry.js";
import type { ApiContext } from "../context.js";
import { HttpError } from "../errors.js";
import { route } from "../route.js";
import {
  AddRepoRequest,
  GroupMembersRequest,
  GroupRequest,
  GroupResponse,
  GroupsResponse,
  JobAccepted,
  OkResponse,
  RelationRequest,
  RelationsResponse,
  ReposResponse,
  RepoStatus,
  SyncRequest,
} from "../schemas.js";
import { z } from "zod";

/** Refuses a change where the server serves one repository (before any job is queued for it). */
function editable(ctx: ApiContext): void {
  if (!ctx.editable) throw SingleRepoRegistry.refusal();
}

export function repoRoutes(ctx: ApiContext) {
  const { workspace, jobs } = ctx;
  return [
    route({
      method: "get",
      path: "/repos",
      tag: "repositories",
      summary: "The repositories: their index, their checkout, how far behind their branch they are, their groups",
      response: ReposResponse,
      async handler() {
        const groups = workspace.groups();
        const repos = (await workspace.status()).map((r) => ({ ...r, groups: Object.keys(groups).filter((g) => groups[g]!.includes(r.name)) }));
        return { repos, editable: ctx.editable };
      },
    }),
    route({
      method: "post",
      path: "/repos",
      tag: "repositories",
      summary: "Registers a repository (an absolute folder of the server's machine, or a git URL to clone) and indexes it, as a job",
      body: AddRepoRequest,
      response: JobAccepted,
      status: 202,
      errors: [409],
      handler({ body }) {
        editable(ctx);
        const source = workspace.checkSource(body.source, { cwd: "/", absolute: true, ...(body.branch !== undefined ? { branch: body.branch } : {}) });
        // Registered by an add still running: that add answers below (the same job, or 409 for another source).
        if (!jobs.has("add", [body.name]) && workspace.repos().some((r) => r.name === body.name)) throw new HttpError("ALREADY_EXISTS", `A repository named ${body.name} is already registered.`);
        // The same add asked again is its job; another source under the same name is refused (409).
        const key = JSON.stringify([body.source.trim(), body.branch ?? null]);
        const job = jobs.submit(
          "add",
          [body.name],
          async (report, signal) => {
            if (source.kind === "remote") report({ stage: "clone", message: `cloning ${source.url}` });
            return workspace.addRepo(body.name, body.source, { ...(body.branch ? { branch: body.branch } : {}), cwd: "/", onProgress: report, signal });
          },
          key,
        );
        return { job };
      },
    }),
    route({
      method: "delete",
      path: "/repos/:name",
      tag: "repositories",
      summary: "Unregisters a repository; a clone the workspace made is deleted with its index, a local folder is never touched",
      response: z.object({ removed: RepoStatus.pick({ name: true, kind: true, path: true }) }),
      async handler({ params }) {
        editable(ctx);
        // What is queued or running for it stops first: an add still cloning is cancelled too.
        jobs.cancel(params.name!);
        return { removed: await workspace.removeRepo(params.name!) };
      },
    }),
    route({
      method: "post",
      path: "/repos/:name/sync",
      tag: "repositories",
      summary: "Brings a repository up to date (a clone fetches its branch), then re-indexes what changed, as a job",
      body: SyncRequest,
      response: JobAccepted,
      status: 202,
      handler({ params }) {
        const name = params.name!;
        if (!workspace.repos().some((r) => r.name === name)) throw new HttpError("NOT_FOUND", `No repository named ${name} in the workspace.`);
        const job = jobs.submit("sync", [name], async (report, signal) => {
          const [result] = await workspace.sync([name], { onProgress: report, signal });
          if (!result!.ok) throw new ContextSmithError(result!.error!.code as ErrorCode, result!.error!.message);
          return result;
        });
        return { job };
      },
    }),
    route({
      method: "get",
      path: "/groups",
      tag: "groups",
      summary: "The groups: name → member repositories",
      response: GroupsResponse,
      handler: () => ({ groups: workspace.groups() }),
    }),
    route({
      method: "post",
      path: "/groups",
      tag: "groups",
      summary: "Creates a group",
      body: GroupRequest,
      response: GroupResponse,
      status: 201,
      errors: [409],
      async handler({ body }) {
        editable(ctx);
        return { name: body.name, repos: await workspace.createGroup(body.name, body.repos) };
      },
    }),
    route({
      method: "post",
      path: "/groups/:group/repos",
      tag: "groups",
      summary: "Adds repositories to a group",
      body: GroupMembersRequest,
      response: GroupResponse,
      async handler({ params, body }) {
        editable(ctx);
        return { name: params.group!, repos: await workspace.addToGroup(params.group!, body.repos) };
      },
    }),
    route({
      method: "delete",
      path: "/groups/:group/repos/:name",
      tag: "groups",
      summary: "Takes a repository out of a group (it stays registered)",
      response: GroupResponse,
      async handler({ params }) {
        editable(ctx);
        return { name: params.group!, repos: await workspace.removeFromGroup(params.group!, [params.name!]) };
      },
    }),
    route({
      method: "delete",
      path: "/groups/:group",
      tag: "groups",
      summary: "Deletes a group; its repositories stay",
      response: OkResponse,
      async handler({ params }) {
        editable(ctx);
        await workspace.deleteGroup(params.group!);
        return { ok: true as const };
      },
    }),
    route({
      method: "get",
      path: "/relations",
      tag: "relations",
      summary: "The dependency graph: all of it, or around one repository (?repo=), with the hops to each",
      query: z.object({ repo: z.string().min(1).max(64).optional() }),
      response: RelationsResponse,
      handler: ({ query }) => workspace.relations(query.repo),
    }),
    route({
      method: "post",
      path: "/relations",
      tag: "relations",
      summary: "Records that `from` depends on `to`; a cycle is refused (409 DEPENDENCY_CYCLE, with the cycle in error.data.cycle)",
      body: RelationRequest,
      response: RelationsResponse,
      status: 201,
      errors: [409],
      async handler({ body }) {
        editable(ctx);
        await workspace.addRelation(body.from, body.to);
        return workspace.relations();
      },
    }),
    route({
      method: "delete",
      path: "/relations/:from/:to",
      tag: "relations",
      summary: "Forgets that `from` depends on `to`",
      response: RelationsResponse,
      async handler({ params }) {
        editable(ctx);
        await workspace.removeRelation(params.from!, params.to!);
        return workspace.relations();
      },
    }),
  ];
}
