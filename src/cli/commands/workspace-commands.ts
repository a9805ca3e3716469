import { ContextSmithError } from "../../core/errors.js";
import type { Argv } from "yargs";
import { formatBytes } from "../../core/format.js";
import type { RepoStatus, SyncResult } from "../../workspace/types.js";
import type { CliIO } from "../io.js";
import { waitTimeoutOption } from "../query-args.js";
import { dataDirOption, jsonOption, withWorkspace } from "../workspace-args.js";

interface WorkspaceArgs {
  "data-dir"?: string;
  "wait-timeout"?: number;
  json: boolean;
}

function print(io: CliIO, args: WorkspaceArgs, value: unknown, text: string): void {
  io.stdout.write(args.json ? `${JSON.stringify(value)}\n` : text);
}

/** `ctxsmith repo add|list|remove|sync` */
export function repoCommand(io: CliIO) {
  return {
    command: "repo",
    describe: "The workspace's repositories: repo add NAME PATH|URL, repo list, repo remove NAME, repo sync [NAME…]",
    builder: (y: Argv) =>
      dataDirOption(y)
        .command(
          "add <name> <address>",
          "Register a local folder, or clone a URL (https, ssh, git@host:path, a bare repository) into the data folder, and index it",
          (a: Argv) =>
            a
              .positional("name", { type: "string", demandOption: true, describe: "a-z, 0-9, '.', '_', '-'" })
              .positional("address", { type: "string", demandOption: true, describe: "A folder, or a git URL to clone" })
              .option("branch", { type: "string", describe: "The branch a clone follows (default: the remote's default branch)" })
              .option("index", { type: "boolean", default: true, describe: "Index it now (--no-index: at the first sync or query)" })
              .option("wait-timeout", waitTimeoutOption)
              .option("json", jsonOption),
          async (args: WorkspaceArgs & { name: string; address: string; branch?: string; index: boolean }) => {
            const entry = await withWorkspace(args, io, (ws, options) => ws.addRepo(args.name, args.address, { branch: args.branch, cwd: io.resolvePath("."), index: args.index, ...options }));
            print(io, args, { repo: entry }, `Added ${entry.name} (${entry.kind}): ${entry.url ? `${entry.url} → ` : ""}${entry.path}\n`);
          },
        )
        .command(
          "list",
          "The repositories: kind, path, indexed commit, whether it is behind, files, index size",
          (a: Argv) => a.option("json", jsonOption),
          async (args: WorkspaceArgs) => {
            const repos = await withWorkspace(args, io, (ws) => ws.status());
            print(io, args, { repos }, formatRepos(repos));
          },
        )
        .command(
          "remove <name>",
          "Unregister a repository (a local folder is never deleted; a clone the workspace made is)",
          (a: Argv) => a.positional("name", { type: "string", demandOption: true }).option("json", jsonOption),
          async (args: WorkspaceArgs & { name: string }) => {
            const entry = await withWorkspace(args, io, (ws) => ws.removeRepo(args.name));
            print(io, args, { removed: entry }, `Removed ${entry.name}${entry.kind === "remote" ? ` and its clone ${entry.path}` : ` (${entry.path} is left as it is)`}.\n`);
          },
        )
        .command(
          "sync [names..]",
          "Fetch clones to their branch head and re-index what changed (all repositories when none is named)",
          (a: Argv) => a.positional("names", { type: "string", array: true }).option("wait-timeout", waitTimeoutOption).option("json", jsonOption),
          async (args: WorkspaceArgs & { names?: string[] }) => {
            const results = await withWorkspace(args, io, (ws, options) => ws.sync(args.names ?? [], options));
            print(io, args, { results }, formatSync(results));
            if (results.some((r) => !r.ok)) process.exitCode = 1;
          },
        )
        .demandCommand(1, "Name an action: add, list, remove or sync."),
    handler: () => undefined,
  };
}

/** `ctxsmith group create|add|remove|delete|list` */
export function groupCommand(io: CliIO) {
  const members = (a: Argv) => a.positional("name", { type: "string", demandOption: true }).positional("repos", { type: "string", array: true, demandOption: true }).option("json", jsonOption);
  return {
    command: "group",
    describe: "Groups of repositories: group create NAME --repos A B, group add|remove NAME REPO…, group delete NAME, group list",
    builder: (y: Argv) =>
      dataDirOption(y)
        .command(
          "create <name>",
          "Create a group",
          (a: Argv) => a.positional("name", { type: "string", demandOption: true }).option("repos", { type: "string", array: true, default: [], describe: "Its first members" }).option("json", jsonOption),
          async (args: WorkspaceArgs & { name: string; repos: string[] }) => {
            const list = await withWorkspace(args, io, (ws) => ws.createGroup(args.name, args.repos));
            print(io, args, { group: args.name, repos: list }, `Group ${args.name}: ${list.join(", ") || "(empty)"}\n`);
          },
        )
        .command("add <name> <repos..>", "Add repositories to a group", members, async (args: WorkspaceArgs & { name: string; repos: string[] }) => {
          const list = await withWorkspace(args, io, (ws) => ws.addToGroup(args.name, args.repos));
          print(io, args, { group: args.name, repos: list }, `Group ${args.name}: ${list.join(", ")}\n`);
        })
        .command("remove <name> <repos..>", "Take repositories out of a group (they stay registered)", members, async (args: WorkspaceArgs & { name: string; repos: string[] }) => {
          const list = await withWorkspace(args, io, (ws) => ws.removeFromGroup(args.name, args.repos));
          print(io, args, { group: args.name, repos: list }, `Group ${args.name}: ${list.join(", ") || "(empty)"}\n`);
        })
        .command(
          "delete <name>",
          "Delete a group (its repositories stay)",
          (a: Argv) => a.positional("name", { type: "string", demandOption: true }).option("json", jsonOption),
          async (args: WorkspaceArgs & { name: string }) => {
            await withWorkspace(args, io, (ws) => ws.deleteGroup(args.name));
            print(io, args, { deleted: args.name }, `Deleted group ${args.name}.\n`);
          },
        )
        .command(
          "list",
          "The groups and their members",
          (a: Argv) => a.option("json", jsonOption),
          async (args: WorkspaceArgs) => {
            const groups = await withWorkspace(args, io, async (ws) => ws.groups());
            const text = Object.keys(groups).length === 0 ? "No group yet: ctxsmith group create NAME --repos A B\n" : Object.entries(groups).map(([g, m]) => `${g}: ${m.join(", ") || "(empty)"}\n`).join("");
            print(io, args, { groups }, text);
          },
        )
        .demandCommand(1, "Name an action: create, add, remove, delete or list."),
    handler: () => undefined,
  };
}

/** `ctxsmith relation add|remove|show` */
export function relationCommand(io: CliIO) {
  const edge = (a: Argv) => a.positional("from", { type: "string", demandOption: true, describe: "The repository that depends" }).positional("to", { type: "string", demandOption: true, describe: "The repository it depends on" }).option("json", jsonOption);
  return {
    command: "relation",
    describe: "The dependency graph: relation add A B (A depends on B), relation remove A B, relation show [A]",
    builder: (y: Argv) =>
      dataDirOption(y)
        .command("add <from> <to>", "Record that FROM depends on TO (a cycle is refused)", edge, async (args: WorkspaceArgs & { from: string; to: string }) => {
          await withWorkspace(args, io, (ws) => ws.addRelation(args.from, args.to));
          print(io, args, { added: [args.from, args.to] }, `${args.from} depends on ${args.to}.\n`);
        })
        .command("remove <from> <to>", "Forget that FROM depends on TO", edge, async (args: WorkspaceArgs & { from: string; to: string }) => {
          await withWorkspace(args, io, (ws) => ws.removeRelation(args.from, args.to));
          print(io, args, { removed: [args.from, args.to] }, `${args.from} no longer depends on ${args.to}.\n`);
        })
        .command(
          "show [repo]",
          "The whole graph, or one repository's dependencies and dependents (direct and transitive)",
          (a: Argv) => a.positional("repo", { type: "string" }).option("json", jsonOption),
          async (args: WorkspaceArgs & { repo?: string }) => {
            const view = await withWorkspace(args, io, async (ws) => ws.relations(args.repo));
            let text: string;
            if (view.repo === null) text = view.edges.length === 0 ? "No relation yet: ctxsmith relation add A B\n" : view.edges.map(([a, b]) => `${a} → ${b}\n`).join("");
            else {
              const hops = (list: Array<{ repo: string; hops: number }>) => list.map((r) => `${r.repo}${r.hops > 1 ? ` (${r.hops} hops)` : ""}`).join(", ") || "nothing";
              text = `${view.repo} depends on: ${hops(view.dependsOn!)}\n${view.repo} is depended on by: ${hops(view.dependents!)}\n`;
            }
            print(io, args, view, text);
          },
        )
        .demandCommand(1, "Name an action: add, remove or show."),
    handler: () => undefined,
  };
}

/** `ctxsmith api-rule`: what the API map is told that the code does not say. */
export function apiRuleCommand(io: CliIO) {
  const linkSide = (what: string) => ({ type: "string" as const, demandOption: true as const, describe: `${what}: "REPO METHOD PATH" (METHOD may be *)` });
  return {
    command: "api-rule",
    describe: "Declared API rules: api-rule prefix REPO /PREFIX (its routes are reached under it), api-rule link \"REPO METHOD URL\" \"REPO METHOD PATH\", api-rule show",
    builder: (y: Argv) =>
      dataDirOption(y)
        .command(
          "prefix <repo> [prefix]",
          "Declare the prefix REPO's routes are reached under (a gateway, a mount in configuration); --remove forgets it",
          (a: Argv) => a.positional("repo", { type: "string", demandOption: true }).positional("prefix", { type: "string", describe: "A path: /api/orders" }).option("remove", { type: "boolean", default: false }).option("json", jsonOption),
          async (args: WorkspaceArgs & { repo: string; prefix?: string; remove: boolean }) => {
            if (!args.remove && args.prefix === undefined) throw new ContextSmithError("INVALID_ARGUMENT", "Give the prefix (api-rule prefix REPO /PREFIX), or --remove.");
            const rules = await withWorkspace(args, io, (ws) => ws.setApiPrefix(args.repo, args.remove ? null : args.prefix!));
            print(io, args, rules, args.remove ? `${args.repo} has no declared API prefix any more.\n` : `${args.repo}'s routes are reached under ${args.prefix}.\n`);
          },
        )
        .command(
          "link <from> <to>",
          "Declare that the requests FROM reach the route TO (certain, whatever the paths say); --remove forgets it",
          (a: Argv) => a.positional("from", linkSide("The requests")).positional("to", linkSide("The route")).option("remove", { type: "boolean", default: false }).option("json", jsonOption),
          async (args: WorkspaceArgs & { from: string; to: string; remove: boolean }): Promise<void> => {
            const [from, to] = [linkEnd(args.from), linkEnd(args.to)];
            const rules = await withWorkspace(args, io, (ws) => ws.declareApiLink({ from: { repo: from.repo, method: from.method, url: from.path }, to }, args.remove));
            print(io, args, rules, `${args.remove ? "Forgot" : "Declared"}: ${args.from} → ${args.to}\n`);
          },
        )
        .command(
          "show",
          "The declared prefixes and links",
          (a: Argv) => a.option("json", jsonOption),
          async (args: WorkspaceArgs) => {
            const rules = await withWorkspace(args, io, async (ws) => ws.apiRules());
            const prefixes = Object.entries(rules.prefixes ?? {}).map(([repo, prefix]) => `prefix  ${repo}  ${prefix}\n`);
            const links = (rules.links ?? []).map((l) => `link    ${l.from.repo} ${l.from.method} ${l.from.url} → ${l.to.repo} ${l.to.method} ${l.to.path}\n`);
            print(io, args, rules, [...prefixes, ...links].join("") || "No API rule declared.\n");
          },
        )
        .demandCommand(1, "Name an action: prefix, link or show."),
    handler: () => undefined,
  };
}

/** `"web POST /legacy/login"` as its parts. */
function linkEnd(text: string): { repo: string; method: string; path: string } {
  const m = /^\s*(\S+)\s+(get|post|put|patch|delete|head|options|\*)\s+((?:\/|https?:\/\/)\S*)\s*$/i.exec(text);
  if (!m) throw new ContextSmithError("INVALID_ARGUMENT", `"${text}" is not "REPO METHOD PATH" (an HTTP method or *, a path starting with /; for example "web POST /api/login").`);
  return { repo: m[1]!, method: m[2]!.toUpperCase(), path: m[3]! };
}

function formatRepos(repos: readonly RepoStatus[]): string {
  if (repos.length === 0) return "No repository yet: ctxsmith repo add NAME PATH|URL\n";
  return repos
    .map((r) => {
      const state = r.missing
        ? "missing: its folder is gone"
        : [
            r.indexedCommit ? `indexed at ${r.indexedCommit.slice(0, 12)}` : r.files === null ? "not indexed" : "indexed",
            r.headCommit && r.indexedCommit && r.headCommit !== r.indexedCommit ? `checked out ${r.headCommit.slice(0, 12)}` : null,
            r.behind ? `${r.behind} commit${r.behind > 1 ? "s" : ""} behind origin/${r.branch}` : null,
            r.files === null ? null : `${r.files} files`,
            r.indexBytes === null ? null : formatBytes(r.indexBytes),
          ]
            .filter((x) => x !== null)
            .join(" · ");
      return `${r.name}  ${r.kind}  ${r.url ?? r.path}\n    ${state}\n`;
    })
    .join("");
}

function formatSync(results: readonly SyncResult[]): string {
  if (results.length === 0) return "No repository to sync.\n";
  return results
    .map((r) => {
      if (!r.ok) return `${r.repo}: failed: ${r.error!.message}\n`;
      const moved = r.to && r.from !== r.to ? ` ${r.from ? r.from.slice(0, 12) : "∅"} → ${r.to.slice(0, 12)},` : "";
      return `${r.repo}:${moved} ${r.parsed} files read, ${r.removed} removed (${(r.ms / 1000).toFixed(1)} s)\n`;
    })
    .join("");
}
