import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { execa } from "execa";
import { ContextSmithError } from "../../core/errors.js";

/** One commit as read from `git log`. */
export interface LoggedCommit {
  hash: string;
  time: number;
  message: string;
  files: string[];
  /** Files this commit renamed, `[from, to]` (when read with {@link LogOptions.renames}). */
  renamed: Array<[from: string, to: string]>;
}

/** How to read the log. */
export interface LogOptions {
  /**
   * Find renames (`-M`): a renamed file is listed under both its paths either way, and the pair is
   * kept in {@link LoggedCommit.renamed}. Git compares the blobs of files added and deleted in a
   * commit (same-named ones first): about 0.25 s per 1,000 commits of babel, where fixtures move,
   * and it fails where a blob is missing.
   */
  renames: boolean;
  /** Commits of the walk passed over first (to go on after a failed read). */
  skip?: number;
}

const RS = "\x1e";
const US = "\x1f";

/** Paths of the files in `head`'s tree, relative to `root`. */
export async function treeFiles(root: string, head: string): Promise<Set<string>> {
  const r = await execa("git", ["ls-tree", "-r", "--name-only", "-z", head], { cwd: root, maxBuffer: 1024 * 1024 * 1024 });
  return new Set(r.stdout.split("\0").filter((p) => p !== ""));
}

/**
 * The boundary commits of a shallow clone. `git log` shows such a commit as adding every file
 * of its tree, which is not a change anyone made, so its file list must be ignored.
 */
export async function shallowBoundary(root: string): Promise<Set<string>> {
  const r = await execa("git", ["rev-parse", "--git-path", "shallow"], { cwd: root, reject: false });
  if (r.exitCode !== 0) return new Set();
  try {
    const text = await readFile(resolve(root, r.stdout.trim()), "utf8");
    return new Set(text.split("\n").map((l) => l.trim()).filter((l) => l !== ""));
  } catch {
    return new Set(); // not shallow
  }
}

/**
 * Whether the repository is a partial clone (`git clone --filter=…`): its missing blobs are
 * fetched from the remote when something asks for them, so nothing here may ask.
 */
export async function isPartialClone(root: string): Promise<boolean> {
  const r = await execa("git", ["config", "--get", "extensions.partialClone"], { cwd: root, reject: false });
  return r.exitCode === 0 && r.stdout.trim() !== "";
}

/** Whether `ancestor` is reachable from `head` (false when it no longer exists). */
export async function isAncestor(root: string, ancestor: string, head: string): Promise<boolean> {
  const r = await execa("git", ["merge-base", "--is-ancestor", ancestor, head], { cwd: root, reject: false });
  return r.exitCode === 0;
}

/**
 * Streams the ancestry of `head` (newest first), excluding `since` and its ancestors, at most
 * `limit` commits after the first `skip`. Paths are relative to `root` (which may be a subfolder
 * of the work tree), and only files under it are listed. Memory stays flat: commits are yielded as
 * they are read. Where git fails, every commit yielded before was read whole: the same walk with
 * `skip` set to their number goes on from the commit it failed at.
 */
export async function* logCommits(root: string, head: string, since: string | null, limit: number, options: LogOptions = { renames: false }): AsyncGenerator<LoggedCommit> {
  const skip = options.skip ?? 0;
  const args = [
    "log",
    `--format=${RS}%H${US}%ct${US}%B${US}`,
    "--name-status",
    options.renames ? "-M" : "--no-renames",
    "--relative",
    "-z",
    ...(skip > 0 ? [`--skip=${skip}`] : []),
    `-n${limit}`,
    head,
    ...(since ? [`^${since}`] : []),
    "--",
  ];
  // Git 2.44 and later: never fetch a missing blob from a promisor remote to compare it.
  const child = execa("git", args, { cwd: root, buffer: false, reject: false, env: { GIT_NO_LAZY_FETCH: "1" } });
  let stderr = "";
  // The end of it: the fatal error comes last, after any warnings (rename limits, with renames).
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    stderr = (stderr + d).slice(-4096);
  });
  // A decoding stream: multi-byte characters split across chunks stay whole.
  const stdout = child.stdout!.setEncoding("utf8") as AsyncIterable<string>;
  let pending = "";
  let finished = false;
  try {
    for await (const chunk of stdout) {
      pending += chunk;
      const cut = pending.lastIndexOf(RS);
      if (cut <= 0) continue;
      const complete = pending.slice(0, cut);
      pending = pending.slice(cut);
      for (const record of complete.split(RS)) {
        const commit = parseRecord(record);
        if (commit) yield commit;
      }
    }
    // The last record is whole only if git succeeded: a failure may cut its file list short.
    finished = true;
    const result = await child.catch(() => undefined);
    if (result?.exitCode !== 0) {
      throw new ContextSmithError("GIT_FAILED", `git log failed: ${stderr.trim() || `exit code ${String(result?.exitCode)}`}`);
    }
    for (const record of pending.split(RS)) {
      const commit = parseRecord(record);
      if (commit) yield commit;
    }
  } finally {
    // A reader that stopped early: git is stopped too.
    if (!finished && child.exitCode === null) child.kill();
    await child.catch(() => undefined);
  }
}

// A record is: hash US time US message US NUL ["\n"] (status NUL path NUL | R<score> NUL from NUL to NUL)...
function parseRecord(record: string): LoggedCommit | null {
  if (!record) return null;
  const first = record.indexOf(US);
  const second = record.indexOf(US, first + 1);
  const third = record.lastIndexOf(US);
  if (first < 0 || second < 0 || third <= second) return null;
  const fields = record.slice(third + 1).split("\0");
  const files: string[] = [];
  const renamed: Array<[string, string]> = [];
  for (let i = 0; i < fields.length; i++) {
    const status = fields[i]!.replace(/^\n/, "");
    if (status === "") continue;
    const path = fields[++i];
    if (!path) break;
    // A rename or copy names its source, then its destination (copies are never asked for: a
    // copy's source, unchanged, would not count as touched).
    if (status[0] === "R" || status[0] === "C") {
      const to = fields[++i];
      if (!to) break;
      if (status[0] === "R") {
        files.push(path);
        renamed.push([path, to]);
      }
      files.push(to);
    } else {
      files.push(path);
    }
  }
  return {
    hash: record.slice(0, first),
    time: Number(record.slice(first + 1, second)),
    message: record.slice(second + 1, third).trim(),
    files,
    renamed,
  };
}
