import { readFile } from "node:fs/promises";
import type { Argv } from "yargs";
import { ContextSmithError } from "../core/errors.js";
import { Engine, type QueryOptions } from "../engine.js";
import type { CliIO } from "./io.js";
import { progressRenderer } from "./progress.js";

/** Options every query command takes. */
export interface QueryArgs {
  path: string;
  "index-dir"?: string;
  refresh: boolean;
  "wait-timeout"?: number;
  json: boolean;
}

/** Adds the options every query command takes. */
export function queryOptions<T>(y: Argv<T>) {
  return y
    .option("path", { alias: "p", type: "string", default: ".", describe: "Repository root" })
    .option("index-dir", { type: "string", describe: "Where the index lives (default PATH/.contextsmith)" })
    .option("refresh", { type: "boolean", default: true, describe: "Re-index what changed first (--no-refresh reads the index as it is)" })
    .option("wait-timeout", waitTimeoutOption)
    .option("json", { type: "boolean", default: false, describe: "Print JSON (see README for the contract)" });
}

/** `--wait-timeout SECONDS`, for every command that may index. */
export const waitTimeoutOption = {
  type: "string",
  describe: "Give up after this many seconds when another index run holds the lock (default: wait while it lives)",
  coerce: decimal("wait-timeout", /^\d+(\.\d+)?$/, "a number of seconds"),
} as const;

/** `--wait-timeout` in milliseconds. */
export function waitTimeoutMs(seconds: number | undefined): number | undefined {
  return seconds === undefined ? undefined : seconds * 1000;
}

/** Adds the task sources: a positional text, or `--task-file F` (`-` for stdin). */
export function taskOptions<T>(y: Argv<T>) {
  return y
    .positional("task", { type: "string", describe: "The task: an issue text, a question, a title" })
    .option("task-file", { type: "string", describe: "Read the task from a file (- for stdin): long issue texts, no shell quoting" });
}

/** The task text from the positional argument or `--task-file`. */
export async function readTask(args: { task?: string; "task-file"?: string }, io: CliIO): Promise<string> {
  if (args.task !== undefined && args["task-file"] !== undefined) {
    throw new ContextSmithError("INVALID_ARGUMENT", "Give the task as an argument or with --task-file, not both.");
  }
  let text: string;
  if (args["task-file"] === "-") text = await readAll(io.stdin);
  else if (args["task-file"] !== undefined) {
    const file = io.resolvePath(args["task-file"]);
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new ContextSmithError("PATH_NOT_FOUND", `Cannot read the task file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else text = args.task ?? "";
  if (text.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", "The task is empty: give it as an argument or with --task-file FILE (- for stdin).");
  return text;
}

/**
 * Opens the engine of a query command and runs `work` with the query options (refresh with a
 * progress bar on a terminal, cancellation); closes the engine afterwards.
 */
export async function withQueryEngine<R>(args: QueryArgs, io: CliIO, work: (engine: Engine, options: QueryOptions) => Promise<R>): Promise<R> {
  const engine = new Engine(io.resolvePath(args.path), {
    indexDir: args["index-dir"] === undefined ? undefined : io.resolvePath(args["index-dir"]),
  });
  // A first query builds the index: that takes a while on a big repository, so show it.
  const progress = progressRenderer("auto", io.stderr);
  try {
    return await work(engine, { refresh: args.refresh, waitTimeoutMs: waitTimeoutMs(args["wait-timeout"]), onProgress: progress.onProgress, signal: io.signal });
  } finally {
    progress.finish();
    await engine.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** What a query could not use (the semantic signal skipped, say): one line each on stderr. */
export function printNotices(notices: readonly string[] | undefined, io: CliIO): void {
  for (const notice of notices ?? []) io.stderr.write(`note: ${notice}\n`);
}

/** `--limit` as a positive whole number, or an INVALID_ARGUMENT error. */
/**
 * A positive whole-number option, written in decimal digits: yargs alone reads `0x10` as 16 and
 * `1e3` as 1000, and passes `2.5` or `-1` on.
 */
export function positiveWholeOption(name: string, describe: string, defaultValue: number, alias?: string) {
  return {
    ...(alias ? { alias } : {}),
    type: "string",
    default: String(defaultValue),
    describe,
    coerce: decimal(name, /^0*[1-9]\d*$/, "a positive whole number"),
  } as const;
}

/**
 * An option's value read as decimal digits matching `pattern` (yargs alone reads `0x10` as 16 and
 * `1e3` as 1000). @throws ContextSmithError `INVALID_ARGUMENT`, a usage error
 */
function decimal(name: string, pattern: RegExp, what: string): (value: string | number) => number {
  return (value) => {
    const text = String(value).trim();
    if (!pattern.test(text)) throw new ContextSmithError("INVALID_ARGUMENT", `--${name} must be ${what}, not "${value}".`);
    return Number(text);
  };
}
