import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IndexStore } from "../src/store/store.js";

/** The command-line options of a benchmark script: `--name value` pairs. */
export function benchArgs(usage: string, required: string[]): (name: string, fallback?: string) => string | undefined {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback?: string): string | undefined => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  if (required.some((name) => opt(name) === undefined)) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return opt;
}

/**
 * A reader of the memory figures of `/proc/PID/status` (`VmRSS`, `VmHWM`, `RssAnon`, …) in MB, or
 * null when the process is gone or this is not Linux.
 */
export function procStatus(pid: number | "self"): ((field: string) => number) | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  return (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

/** The index of `root`, opened to read; without one, the script says how to make it and exits. */
export function openIndexOrExit(tool: string, root: string): IndexStore {
  const noIndex = (why: string): never => {
    process.stderr.write(`${tool}: ${why}: run \`ctxsmith index ${root}\` first\n`);
    process.exit(2);
  };
  let opened: IndexStore | null = null;
  try {
    opened = IndexStore.openForRead(join(root, ".contextsmith"));
  } catch (error) {
    noIndex((error as Error).message);
  }
  return opened ?? noIndex(`no index in ${root}`);
}

/**
 * The first `count` problem statements of a JSONL tasks file (the tuning set will do), and a search
 * query for each: its first backticked identifier, else its first three words.
 */
export function readTasks(file: string, count: number): { tasks: string[]; queries: string[] } {
  const tasks = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, count)
    .map((l) => (JSON.parse(l) as { problem_statement: string }).problem_statement);
  return { tasks, queries: tasks.map((t) => /`([A-Za-z_][\w.]*)`/.exec(t)?.[1] ?? t.split(/\s+/).slice(0, 3).join(" ")) };
}
