import { execa } from "execa";
import { ContextSmithError } from "../core/errors.js";
import type { ChangedFileStatus, ReviewRange } from "./types.js";

/** git that never asks and never runs a configured external program (diff drivers, text conversion, a pager). */
const GIT_ENV = { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", GIT_PAGER: "cat", LC_ALL: "C" };
const GIT_TIMEOUT_MS = 120_000;
/** What one git command may print: a diff of a very large change, or a batch of blobs. */
const MAX_OUTPUT = 512 * 1024 * 1024;

async function git(root: string, args: string[], options: { input?: string; signal?: AbortSignal; encoding?: "utf8" | "buffer" } = {}): Promise<{ ok: boolean; stdout: string | Uint8Array; stderr: string }> {
  const r = await execa("git", ["-c", "core.quotePath=false", ...args], {
    cwd: root,
    env: GIT_ENV,
    reject: false,
    timeout: GIT_TIMEOUT_MS,
    cancelSignal: options.signal,
    maxBuffer: MAX_OUTPUT,
    stripFinalNewline: false,
    encoding: options.encoding === "buffer" ? "buffer" : "utf8",
    ...(options.input === undefined ? { stdin: "ignore" as const } : { input: options.input }),
  });
  if (r.isCanceled) throw new ContextSmithError("ABORTED", "The review was cancelled.");
  if (r.failed && r.exitCode === undefined) throw new ContextSmithError("GIT_FAILED", `git ${args[0]} did not finish: ${r.shortMessage}`);
  return { ok: r.exitCode === 0, stdout: r.stdout as string | Uint8Array, stderr: String(r.stderr ?? "") };
}

async function gitText(root: string, args: string[], what: string, signal?: AbortSignal): Promise<string> {
  const r = await git(root, args, { signal });
  if (!r.ok) throw new ContextSmithError("GIT_FAILED", `${what}: ${r.stderr.trim() || `git ${args[0]} failed`}`);
  return r.stdout as string;
}

/** The commit a revision names, or null when it names none here. */
async function commitOf(root: string, rev: string, signal?: AbortSignal): Promise<string | null> {
  // --end-of-options: a revision that starts with `-` is a name, never an option.
  const r = await git(root, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${rev}^{commit}`], { signal });
  return r.ok ? (r.stdout as string).trim() : null;
}

/** The default branch as this clone knows it: origin's HEAD, then the usual names, remote first. */
async function defaultBranch(root: string, signal?: AbortSignal): Promise<string | null> {
  const symbolic = await git(root, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"], { signal });
  const candidates = [...(symbolic.ok ? [(symbolic.stdout as string).trim()] : []), "origin/main", "origin/master", "main", "master"];
  for (const ref of candidates) if (await commitOf(root, ref, signal)) return ref;
  return null;
}

/**
 * What a review compares: `base` (default: the merge base of the head with the default branch)
 * and `head` (default: the work tree, staged or not, with its untracked files). In a shallow clone
 * without the merge base, the base itself, with a notice: a pull request's merge commit has it as
 * its first parent, so that is still exactly the change.
 * @throws ContextSmithError `GIT_FAILED` outside a git repository; `INVALID_ARGUMENT` for a revision that names no commit
 */
export async function resolveRange(root: string, refs: { base?: string; head?: string }, signal?: AbortSignal): Promise<{ range: ReviewRange; notices: string[] }> {
  const inside = await git(root, ["rev-parse", "--is-inside-work-tree"], { signal });
  if (!inside.ok || (inside.stdout as string).trim() !== "true") throw new ContextSmithError("GIT_FAILED", `${root} is not in a git work tree: a review compares two versions of it in git.`);
  const named = async (rev: string, option: string): Promise<string> => {
    if (rev.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", `--${option} is empty: name a branch, tag or commit.`);
    const commit = await commitOf(root, rev, signal);
    if (!commit) throw new ContextSmithError("INVALID_ARGUMENT", `--${option} ${rev} names no commit of this repository${option === "base" ? " (in a CI clone, fetch it first: git fetch origin main)" : ""}.`);
    return commit;
  };
  const head = refs.head === undefined ? await commitOf(root, "HEAD", signal) : await named(refs.head, "head");
  if (!head) throw new ContextSmithError("INVALID_ARGUMENT", "This repository has no commit yet: there is nothing to compare the work tree with.");
  const baseRef = refs.base ?? (await defaultBranch(root, signal));
  if (baseRef === null) throw new ContextSmithError("INVALID_ARGUMENT", "No default branch found (origin/HEAD, main or master): name the base with --base REF.");
  const baseCommit = await named(baseRef, "base");
  const notices: string[] = [];
  const mergeBase = await git(root, ["merge-base", baseCommit, head], { signal });
  let from = baseCommit;
  if (mergeBase.ok) from = (mergeBase.stdout as string).trim();
  else notices.push(`${baseRef} and the head share no commit in this clone (a shallow clone?): comparing with ${baseRef} itself. Fetch more history (git fetch --deepen=50) for the exact merge base.`);
  return { range: { base: { ref: baseRef, commit: baseCommit }, from, head: refs.head === undefined ? { ref: null, commit: head } : { ref: refs.head, commit: head } }, notices };
}

/** One changed file of a diff, before its symbols are compared. */
export interface DiffEntry {
  status: ChangedFileStatus;
  path: string;
  previousPath?: string;
  additions: number | null;
  deletions: number | null;
}

/**
 * The files changed from `from` to `to` (null: the work tree, tracked files and untracked ones
 * git does not ignore), with renames found; paths relative to `root`, and only those under it.
 */
export async function changedFiles(root: string, from: string, to: string | null, signal?: AbortSignal): Promise<DiffEntry[]> {
  const range = to === null ? [from] : [from, to];
  const common = ["diff", "--no-ext-diff", "--no-textconv", "--no-color", "-M", "--relative", "-z"];
  const [names, counts] = await Promise.all([
    gitText(root, [...common, "--name-status", ...range, "--"], "git diff failed", signal),
    gitText(root, [...common, "--numstat", ...range, "--"], "git diff failed", signal),
  ]);
  const entries: DiffEntry[] = [];
  const fields = names.split("\0");
  for (let i = 0; i + 1 < fields.length; ) {
    const code = fields[i++]!;
    if (code === "") continue;
    const letter = code[0]!;
    if (letter === "R") {
      const previousPath = fields[i++]!;
      entries.push({ status: "renamed", path: fields[i++]!, previousPath, additions: null, deletions: null });
    } else {
      const path = fields[i++]!;
      entries.push({ status: letter === "A" ? "added" : letter === "D" ? "deleted" : "modified", path, additions: null, deletions: null });
    }
  }
  const byPath = new Map(entries.map((e) => [e.path, e]));
  const stats = counts.split("\0");
  for (let i = 0; i < stats.length; ) {
    const line = stats[i++]!;
    if (line === "") continue;
    const [added, deleted, path] = line.split("\t");
    // A rename's line ends with an empty path; the old and new paths follow as fields of their own.
    const target = path === "" ? (i++, stats[i++]!) : path!;
    const entry = byPath.get(target);
    if (entry && added !== "-") {
      entry.additions = Number(added);
      entry.deletions = Number(deleted);
    }
  }
  if (to === null) {
    const untracked = await gitText(root, ["ls-files", "--others", "--exclude-standard", "-z", "--", "."], "git ls-files failed", signal);
    for (const path of untracked.split("\0")) if (path !== "" && !byPath.has(path)) entries.push({ status: "added", path, additions: null, deletions: null });
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A file's content at a commit, or why it is not read. */
export type Blob = { text: string } | { skipped: "binary" | "too-large" | "undecodable" | "missing" };

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * The contents of `paths` (relative to `root`) at `commit`, each up to `maxBytes`: larger files,
 * binary and undecodable ones are named, not read. Two git processes whatever the number of files.
 */
export async function readBlobs(root: string, commit: string, paths: readonly string[], maxBytes: number, signal?: AbortSignal): Promise<Map<string, Blob>> {
  const out = new Map<string, Blob>();
  // The batch protocol is line-based: a path with a line break in it is not asked for.
  const asked = paths.filter((p) => !/[\n\r]/.test(p));
  for (const p of paths) if (!asked.includes(p)) out.set(p, { skipped: "missing" });
  if (asked.length === 0) return out;
  // `commit:./path` is relative to the working directory: the engine's root, which may be a subfolder.
  const spec = (p: string): string => `${commit}:./${p}`;
  const sizes = await git(root, ["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], { input: asked.map(spec).join("\n") + "\n", signal });
  if (!sizes.ok) throw new ContextSmithError("GIT_FAILED", `git cat-file failed: ${sizes.stderr.trim()}`);
  const wanted: Array<{ path: string; id: string }> = [];
  (sizes.stdout as string).split("\n").slice(0, asked.length).forEach((line, k) => {
    const path = asked[k]!;
    const [id, type, size] = line.split(" ");
    if (type !== "blob") out.set(path, { skipped: "missing" });
    else if (Number(size) > maxBytes) out.set(path, { skipped: "too-large" });
    else wanted.push({ path, id: id! });
  });
  if (wanted.length === 0) return out;
  const batch = await git(root, ["cat-file", "--batch"], { input: wanted.map((w) => w.id).join("\n") + "\n", signal, encoding: "buffer" });
  if (!batch.ok) throw new ContextSmithError("GIT_FAILED", `git cat-file failed: ${batch.stderr.trim()}`);
  const bytes = batch.stdout as Uint8Array;
  let at = 0;
  for (const { path } of wanted) {
    const nl = bytes.indexOf(10, at);
    const header = Buffer.from(bytes.subarray(at, nl)).toString("latin1").split(" ");
    const size = Number(header[2]);
    const body = bytes.subarray(nl + 1, nl + 1 + size);
    at = nl + 1 + size + 1;
    if (body.includes(0)) {
      out.set(path, { skipped: "binary" });
      continue;
    }
    try {
      out.set(path, { text: decoder.decode(body) });
    } catch {
      out.set(path, { skipped: "undecodable" });
    }
  }
  return out;
}

/** One line of the head that names a word. */
export interface WordHit {
  path: string;
  line: number;
  text: string;
}

/**
 * Where `word` still occurs as a whole word in the head (`rev`, or the work tree's files git does
 * not ignore when null), under `root`, text files only; at most `limit` lines, and how many there are.
 */
export async function grepWord(root: string, rev: string | null, word: string, limit: number, signal?: AbortSignal): Promise<{ hits: WordHit[]; total: number }> {
  const r = await git(root, ["grep", "-n", "-I", "-w", "-F", "--no-color", ...(rev ? [] : ["--untracked"]), "-e", word, ...(rev ? [rev] : []), "--", "."], { signal });
  // Exit 1: no line matched.
  if (!r.ok) return { hits: [], total: 0 };
  const lines = (r.stdout as string).split("\n").filter((l) => l !== "");
  const prefix = rev ? `${rev}:` : "";
  const hits: WordHit[] = [];
  for (const l of lines.slice(0, limit)) {
    const rest = l.startsWith(prefix) ? l.slice(prefix.length) : l;
    const m = /^(.*?):(\d+):(.*)$/.exec(rest);
    if (m) hits.push({ path: m[1]!, line: Number(m[2]), text: m[3]!.trim().slice(0, 200) });
  }
  return { hits, total: lines.length };
}
