import { execa } from "execa";
import { ContextSmithError } from "../core/errors.js";
import type { ChangedFileStatus, ReviewRange } from "./types.js";

/** git that never asks and never runs a configured external program (diff drivers, text conversion, a pager). */
const GIT_ENV = { GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", GIT_PAGER: "cat", LC_ALL: "C" };
const GIT_TIMEOUT_MS = 120_000;
/** What one git command may print: a diff of a very large change, or a batch of blobs. */
const MAX_OUTPUT = 64 * 1024 * 1024;

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
  if (r.isMaxBuffer) throw new ContextSmithError("GIT_FAILED", `git ${args[0]} printed more than ${MAX_OUTPUT / 1024 / 1024} MiB: the change is too large to review at once.`);
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

/** Whether the work tree is `commit` exactly: checked out, nothing under `root` changed or untracked. */
export async function isWorkTreeAt(root: string, commit: string, signal?: AbortSignal): Promise<boolean> {
  if ((await commitOf(root, "HEAD", signal)) !== commit) return false;
  return (await gitText(root, ["status", "--porcelain", "-z", "--", "."], "git status failed", signal)) === "";
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
export type Blob = { text: string } | { skipped: "binary" | "too-large" | "undecodable" | "missing" | "change too large" };

const decoder = new TextDecoder("utf-8", { fatal: true });
/** Bytes of blobs one `git cat-file` process prints: a large change is read in several. */
const BATCH_BYTES = 32 * 1024 * 1024;

/**
 * The contents of `paths` (relative to `root`) at `commit`, each up to `maxBytes` and `totalBytes`
 * in all: larger files, binary and undecodable ones, and those past the total are named, not read.
 * One listing of the commit's tree, then blobs in batches of {@link BATCH_BYTES}.
 */
export async function readBlobs(root: string, commit: string, paths: readonly string[], limits: { maxBytes: number; totalBytes: number }, signal?: AbortSignal): Promise<Map<string, Blob>> {
  const out = new Map<string, Blob>(paths.map((p) => [p, { skipped: "missing" }]));
  if (paths.length === 0) return out;
  // One pass over the tree under the root (the paths relative to it), with each blob's size.
  const listing = await gitText(root, ["ls-tree", "-r", "-z", "-l", commit, "--", "."], "git ls-tree failed", signal);
  const wanted: Array<{ path: string; id: string; size: number }> = [];
  let total = 0;
  for (const entry of listing.split("\0")) {
    const tab = entry.indexOf("\t");
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    if (!out.has(path)) continue;
    const [, type, id, size] = entry.slice(0, tab).split(/\s+/);
    if (type !== "blob") continue;
    const bytes = Number(size);
    if (bytes > limits.maxBytes) out.set(path, { skipped: "too-large" });
    else if (total + bytes > limits.totalBytes) out.set(path, { skipped: "change too large" });
    else {
      total += bytes;
      wanted.push({ path, id: id!, size: bytes });
    }
  }
  for (let i = 0; i < wanted.length; ) {
    const batch: typeof wanted = [];
    let bytes = 0;
    while (i < wanted.length && (batch.length === 0 || bytes + wanted[i]!.size <= BATCH_BYTES)) {
      bytes += wanted[i]!.size;
      batch.push(wanted[i++]!);
    }
    const r = await git(root, ["cat-file", "--batch"], { input: batch.map((w) => w.id).join("\n") + "\n", signal, encoding: "buffer" });
    if (!r.ok) throw new ContextSmithError("GIT_FAILED", `git cat-file failed: ${r.stderr.trim()}`);
    const stdout = r.stdout as Uint8Array;
    let at = 0;
    for (const { path } of batch) {
      const nl = stdout.indexOf(10, at);
      const size = Number(Buffer.from(stdout.subarray(at, nl)).toString("latin1").split(" ")[2]);
      const body = stdout.subarray(nl + 1, nl + 1 + size);
      at = nl + 1 + size + 1;
      out.set(path, decode(body));
    }
  }
  return out;
}

function decode(body: Uint8Array): Blob {
  if (body.includes(0)) return { skipped: "binary" };
  try {
    return { text: decoder.decode(body) };
  } catch {
    return { skipped: "undecodable" };
  }
}

/** One line of the head that names a word. */
export interface WordHit {
  path: string;
  line: number;
  text: string;
}

/**
 * Where each of `words` still occurs as a whole word in the head (`rev`, or the work tree's files
 * git does not ignore when null), under `root`, text files only (those `keep` keeps): one `git
 * grep` for all of them; at most `limit` lines each, and how many there are.
 */
export async function grepWords(root: string, rev: string | null, words: readonly string[], limit: number, keep: (path: string) => boolean = () => true, signal?: AbortSignal): Promise<Map<string, { hits: WordHit[]; total: number }>> {
  const found = new Map<string, { hits: WordHit[]; total: number }>();
  const unique = [...new Set(words)].filter((w) => w !== "");
  if (unique.length === 0) return found;
  const args = ["grep", "-n", "-z", "-I", "-w", "-F", "--no-color", ...(rev ? [] : ["--untracked"]), ...unique.flatMap((w) => ["-e", w]), ...(rev ? [rev] : []), "--", "."];
  const r = await git(root, args, { signal });
  // Exit 1: no line matched.
  if (!r.ok) return found;
  const prefix = rev ? `${rev}:` : "";
  const patterns = unique.map((w) => ({ word: w, re: new RegExp(`(?<!\\w)${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?!\\w)`) }));
  for (const line of (r.stdout as string).split("\n")) {
    // `path NUL number NUL text`: a path may hold any character but NUL.
    const [file, number, ...rest] = line.split("\0");
    if (file === undefined || number === undefined) continue;
    const text = rest.join("\0");
    const hit = { path: file.startsWith(prefix) ? file.slice(prefix.length) : file, line: Number(number), text: text.trim().slice(0, 200) };
    if (!keep(hit.path)) continue;
    for (const { word, re } of patterns) {
      if (!re.test(text)) continue;
      let entry = found.get(word);
      if (!entry) found.set(word, (entry = { hits: [], total: 0 }));
      entry.total++;
      if (entry.hits.length < limit) entry.hits.push(hit);
    }
  }
  return found;
}
