import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { execa } from "execa";
import { ContextSmithError } from "../core/errors.js";
import { processAlive } from "../runtime/lock.js";

/** How long one clone or fetch may take before it is stopped. */
const GIT_TIMEOUT_MS = 10 * 60_000;

/**
 * git that never asks: no terminal prompt, no askpass, ssh in batch mode, and only the plain
 * transports (a `ext::` URL runs a command of its author's choosing).
 */
const GIT_ENV = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_ASKPASS: "",
  SSH_ASKPASS: "",
  // ssh in batch mode (no passphrase or host-key prompt), unless the user set up ssh for git.
  ...(process.env.GIT_SSH_COMMAND || process.env.GIT_SSH ? {} : { GIT_SSH_COMMAND: "ssh -o BatchMode=yes" }),
  GIT_ALLOW_PROTOCOL: "file:git:http:https:ssh",
  LC_ALL: "C",
};

/** What a repository address is: a URL git fetches from, or a path on this machine. */
export type Source = { kind: "remote"; url: string } | { kind: "local"; path: string };

/**
 * Reads `repo add`'s address: `https://…`, `ssh://…`, `git://…`, `file://…` and `user@host:path`
 * are cloned; anything else is a path (relative to `cwd`). A local bare repository is cloned too.
 * @throws ContextSmithError `INVALID_ARGUMENT` for `ext::` and other `transport::` addresses, or an address starting with `-`.
 */
export function parseSource(address: string, cwd: string): Source {
  const text = address.trim();
  if (text === "" || text.startsWith("-")) throw new ContextSmithError("INVALID_ARGUMENT", `"${address}" is not a path or a git URL.`);
  if (/^[a-z][a-z0-9+.-]*::/i.test(text)) {
    throw new ContextSmithError("INVALID_ARGUMENT", `"${address}": git transports written as "name::address" (ext::, fd::) are refused; give an https, ssh or file URL.`);
  }
  if (/^(https?|ssh|git|file):\/\//i.test(text)) {
    // The registry and every listing would show it: credentials belong to a git credential helper.
    if (/^https?:\/\/[^/@]*:[^/@]*@/i.test(text)) {
      throw new ContextSmithError("INVALID_ARGUMENT", "A URL with a password or token in it is refused (it would be stored and shown): set up a git credential helper, or use ssh.");
    }
    return { kind: "remote", url: text };
  }
  if (/^[\w.-]+@[\w.-]+:/.test(text)) return { kind: "remote", url: text };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw new ContextSmithError("INVALID_ARGUMENT", `"${address}": only https, ssh, git and file URLs are cloned.`);
  const path = isAbsolute(text) ? text : resolve(cwd, text);
  return isBareRepository(path) ? { kind: "remote", url: path } : { kind: "local", path };
}

function isBareRepository(path: string): boolean {
  return existsSync(resolve(path, "HEAD")) && existsSync(resolve(path, "objects")) && existsSync(resolve(path, "refs"));
}

async function git(args: string[], cwd: string | undefined, what: string, signal?: AbortSignal): Promise<string> {
  const result = await execa("git", args, { cwd, env: GIT_ENV, reject: false, timeout: GIT_TIMEOUT_MS, cancelSignal: signal, stdin: "ignore" });
  if (result.isCanceled) throw new ContextSmithError("ABORTED", `${what} was cancelled.`);
  if (result.timedOut) throw new ContextSmithError("GIT_FAILED", `${what} took more than ${GIT_TIMEOUT_MS / 60_000} minutes and was stopped.`);
  if (result.exitCode !== 0) {
    const line = String(result.stderr).trim().split("\n").filter((l) => l.trim() !== "").pop() ?? `exit code ${result.exitCode}`;
    throw new ContextSmithError("GIT_FAILED", `${what} failed: ${line.replace(/^fatal: /, "")}`);
  }
  return String(result.stdout).trim();
}

/**
 * A branch name as `--branch` takes it: git's ref rules, and nothing that reads as an option or
 * a refspec (`-x`, `a:b`, `+a`). @throws ContextSmithError `INVALID_ARGUMENT`
 */
export function checkBranch(branch: string): string {
  if (!/^[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/.test(branch) || /\.\.|\/\/|\/$|\.lock$|\.$|@\{/.test(branch)) {
    throw new ContextSmithError("INVALID_ARGUMENT", `"${branch}" is not a branch name this workspace follows: use letters, digits, '.', '_', '-' and '/'.`);
  }
  return branch;
}

/**
 * Clones `url` into `dir` (which must not exist): into a temporary folder first, renamed into
 * place when complete, so a failed clone leaves nothing behind. Returns the branch followed.
 */
export async function clone(url: string, dir: string, branch: string | undefined, signal?: AbortSignal): Promise<string> {
  if (branch !== undefined) checkBranch(branch);
  if (existsSync(dir)) throw new ContextSmithError("ALREADY_EXISTS", `${dir} already exists: remove it or choose another name.`);
  // `+` never occurs in a repository name: no registered clone can look like a temporary one.
  const tmp = `${dir}+cloning-${process.pid}`;
  removeAbandonedClones(dir);
  try {
    await git(["clone", "--quiet", "--no-tags", "--single-branch", ...(branch ? ["--branch", branch] : []), "--", url, tmp], undefined, `Cloning ${url}`, signal);
    // A tag given as --branch clones to a detached HEAD: there is no branch to follow.
    const head = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], tmp, `Reading the branch of ${url}`).catch(() => null);
    if (head === null) throw new ContextSmithError("INVALID_ARGUMENT", `${branch ?? "HEAD"} of ${url} is not a branch (a tag?): give a branch to follow with --branch.`);
    const followed = checkBranch(head);
    renameSync(tmp, dir);
    return followed;
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

/** Removes the temporary folders of clones into `dir` whose process is gone (killed mid-clone). */
function removeAbandonedClones(dir: string): void {
  const prefix = `${basename(dir)}+cloning-`;
  let names: string[];
  try {
    names = readdirSync(dirname(dir)).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const suffix = name.slice(prefix.length);
    if (!/^\d+$/.test(suffix)) continue;
    const pid = Number(suffix);
    if (pid !== process.pid && processAlive(pid)) continue;
    rmSync(join(dirname(dir), name), { recursive: true, force: true });
  }
}

/**
 * Fetches the followed branch of a clone and moves the clone to its head. Returns the commits
 * before and after. A failed fetch leaves the clone as it was.
 */
export async function pull(dir: string, branch: string, signal?: AbortSignal): Promise<{ from: string | null; to: string }> {
  checkBranch(branch);
  const from = await headCommit(dir);
  await git(["fetch", "--quiet", "--no-tags", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`], dir, `Fetching ${branch}`, signal);
  const to = await git(["rev-parse", "--verify", `refs/remotes/origin/${branch}^{commit}`], dir, `Reading origin/${branch}`);
  if (to !== from) await git(["reset", "--quiet", "--hard", to], dir, `Checking out ${to.slice(0, 12)}`);
  return { from, to };
}

/** The commit checked out in `dir`, or null (not a git repository, no commit yet). */
export async function headCommit(dir: string): Promise<string | null> {
  const r = await execa("git", ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: dir, env: GIT_ENV, reject: false, stdin: "ignore" });
  return r.exitCode === 0 ? String(r.stdout).trim() : null;
}

/** How many commits of `origin/<branch>` (as last fetched) the checkout lacks; null when unknown. */
export async function commitsBehind(dir: string, branch: string): Promise<number | null> {
  const r = await execa("git", ["rev-list", "--count", `HEAD..refs/remotes/origin/${branch}`], { cwd: dir, env: GIT_ENV, reject: false, stdin: "ignore" });
  return r.exitCode === 0 ? Number(String(r.stdout).trim()) : null;
}
