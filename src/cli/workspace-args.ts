import type { Argv } from "yargs";
import { ContextSmithError } from "../core/errors.js";
import type { ExpandDirection, Scope } from "../workspace/types.js";
import type { Workspace } from "../workspace/workspace.js";
import type { CliIO } from "./io.js";
import { progressRenderer } from "./progress.js";
import { waitTimeoutMs } from "./query-args.js";

/** `--json` of the workspace commands. */
export const jsonOption = { type: "boolean", default: false, describe: "Print JSON" } as const;

/** `--data-dir`, for every command that reads or writes the workspace. */
export function dataDirOption<T>(y: Argv<T>) {
  return y.option("data-dir", { type: "string", describe: "The workspace's data folder (default CTXSMITH_DATA_DIR, else ~/.local/share/contextsmith)" });
}

/** The scope options of `search`, `rank` and `context`: which repositories of the workspace to query. */
export interface ScopeArgs {
  "data-dir"?: string;
  repo?: string[];
  group?: string[];
  all: boolean;
  expand?: ExpandDirection;
  "expand-depth"?: number;
}

/** Adds the scope options: with any of them the query runs over the workspace instead of `--path`. */
export function scopeOptions<T>(y: Argv<T>) {
  return dataDirOption(y)
    .option("repo", { type: "string", array: true, describe: "Query this workspace repository (repeatable)" })
    .option("group", { type: "string", array: true, describe: "Query this group's repositories (repeatable)" })
    .option("all", { type: "boolean", default: false, describe: "Query every repository of the workspace" })
    .option("expand", { choices: ["upstream", "downstream", "both"] as const, describe: "Also query what the repositories depend on (upstream), what depends on them (downstream), or both" })
    .option("expand-depth", {
      type: "string",
      describe: "How many dependency hops --expand follows (default 1)",
      coerce: (value: string) => {
        if (!/^\d+$/.test(String(value).trim())) throw new ContextSmithError("INVALID_ARGUMENT", `--expand-depth must be a whole number, not "${value}".`);
        return Number(value);
      },
    });
}

/** The workspace scope the options name, or null when none is given (the query is about `--path`). */
export function scopeOf(args: ScopeArgs & { path?: string; "index-dir"?: string }): Scope | null {
  const named = args.repo !== undefined || args.group !== undefined || args.all;
  if (!named) {
    if (args.expand !== undefined || args["expand-depth"] !== undefined) {
      throw new ContextSmithError("INVALID_ARGUMENT", `${args.expand !== undefined ? "--expand" : "--expand-depth"} needs a scope: --repo NAME, --group NAME or --all.`);
    }
    return null;
  }
  if ((args.path !== undefined && args.path !== ".") || args["index-dir"] !== undefined) {
    throw new ContextSmithError("INVALID_ARGUMENT", "Give --path (and --index-dir) or a workspace scope (--repo, --group, --all), not both.");
  }
  if (args.all && (args.repo !== undefined || args.group !== undefined)) throw new ContextSmithError("INVALID_ARGUMENT", "--all already names every repository: drop --repo and --group, or --all.");
  if (args["expand-depth"] !== undefined && args.expand === undefined) throw new ContextSmithError("INVALID_ARGUMENT", "--expand-depth needs --expand upstream|downstream|both.");
  return {
    ...(args.repo ? { repos: args.repo } : {}),
    ...(args.group ? { groups: args.group } : {}),
    all: args.all,
    ...(args.expand ? { expand: args.expand } : {}),
    ...(args["expand-depth"] !== undefined ? { expandDepth: args["expand-depth"] } : {}),
  };
}

/**
 * Opens the workspace of `--data-dir`, runs `work` with a progress bar for the index runs it may
 * need on a terminal, and closes it.
 */
export async function withWorkspace<R>(
  args: { "data-dir"?: string; "wait-timeout"?: number; refresh?: boolean },
  io: CliIO,
  work: (ws: Workspace, options: { refresh?: boolean; onProgress?: ReturnType<typeof progressRenderer>["onProgress"]; signal?: AbortSignal; waitTimeoutMs?: number }) => Promise<R>,
): Promise<R> {
  // Loaded here, not at start-up: a query about one repository never pays for the workspace's code.
  const { Workspace } = await import("../workspace/workspace.js");
  const ws = new Workspace({ dataDir: args["data-dir"] === undefined ? undefined : io.resolvePath(args["data-dir"]) });
  const progress = progressRenderer("auto", io.stderr);
  try {
    return await work(ws, { refresh: args.refresh, onProgress: progress.onProgress, signal: io.signal, waitTimeoutMs: waitTimeoutMs(args["wait-timeout"]) });
  } finally {
    progress.finish();
    await ws.close();
  }
}
