import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { ContextSmithError } from "../core/errors.js";

/** Where repositories come from: local bare mirrors, else a clone over the network. */
export interface RepoSource {
  /** A folder of bare repositories named `owner+name/repo` or `owner+name`. */
  mirrors?: string;
  /** Clone from GitHub when no mirror has the repository (default true). */
  network?: boolean;
}

/** A repository checked out at one commit. */
export interface Checkout {
  root: string;
  commit: string;
  /** Paths whose content the local copy lacks (left out of the work tree). */
  missing: string[];
}

const git = async (cwd: string, args: string[], input?: string): Promise<string> => {
  const r = await execa("git", args, { cwd, input, reject: false, maxBuffer: 1024 * 1024 * 1024 });
  if (r.exitCode !== 0) throw new ContextSmithError("GIT_FAILED", `git ${args.slice(0, 3).join(" ")} failed in ${cwd}: ${r.stderr.trim().split("\n").pop()}`);
  return r.stdout;
};

/** The bare mirror of `owner/name` under `mirrors`, or null. */
export function findMirror(mirrors: string, repo: string): string | null {
  const name = repo.replace("/", "+");
  for (const dir of [join(mirrors, name, "repo"), join(mirrors, name), join(mirrors, `${name}.git`)]) {
    if (existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects"))) return dir;
  }
  return null;
}

/**
 * Materialises repositories at base commits, one work clone per repository under `cacheDir`,
 * reused from instance to instance (so the index over it stays incremental).
 *
 * A checkout at `commit` keeps no ref and no reflog that reaches a later commit: HEAD is
 * detached at `commit` and every other ref is deleted, so `git log` — and so the history
 * signals — see only the base commit's ancestry. A blob the local copy lacks (a large data
 * file left out of a mirror) is left out of the work tree with sparse checkout, not an error.
 */
export class Materializer {
  constructor(
    readonly cacheDir: string,
    readonly source: RepoSource,
  ) {}

  /** The work clone's folder for `owner/name`. */
  workDir(repo: string): string {
    return join(this.cacheDir, "repos", repo.replace("/", "+"));
  }

  async checkout(repo: string, commit: string): Promise<Checkout> {
    const root = await this.#clone(repo);
    // Blobs of the target tree that the object store lacks.
    const tree = await git(root, ["ls-tree", "-r", "-z", commit]);
    const blobs = tree
      .split("\0")
      .filter((e) => e !== "")
      .map((e) => {
        const tab = e.indexOf("\t");
        const [, type, sha] = e.slice(0, tab).split(" ");
        return { type, sha: sha!, path: e.slice(tab + 1) };
      })
      .filter((e) => e.type === "blob");
    const check = await git(root, ["cat-file", "--batch-check=%(objectname) %(objecttype)"], blobs.map((b) => b.sha).join("\n") + "\n");
    const absent = new Set(check.split("\n").filter((l) => l.endsWith(" missing")).map((l) => l.split(" ")[0]));
    const missing = blobs.filter((b) => absent.has(b.sha)).map((b) => b.path);
    // Sparse patterns exclude missing blobs. Changing patterns refreshes the work tree at the
    // current HEAD, so first exclude what either commit lacks, then move, then settle on what
    // the target lacks (everything it has is then present).
    const sparseFile = join(root, ".git", "info", "sparse-checkout");
    const excluded = existsSync(sparseFile) ? readFileSync(sparseFile, "utf8").split("\n").filter((l) => l.startsWith("!/")).map((l) => l.slice(2)) : [];
    const exclude = (paths: string[]): Promise<string> => git(root, ["sparse-checkout", "set", "--no-cone", "/*", ...paths.map((p) => `!/${p}`)]);
    if (missing.length > 0) await exclude([...new Set([...excluded, ...missing])]);
    await git(root, ["checkout", "--quiet", "--force", "--detach", commit]);
    if (missing.length > 0) await exclude(missing);
    else if (excluded.length > 0) await git(root, ["sparse-checkout", "disable"]);
    await git(root, ["clean", "-ffdxq"]);
    await this.#pruneRefs(root);
    return { root, commit, missing };
  }

  async #clone(repo: string): Promise<string> {
    const dir = this.workDir(repo);
    if (existsSync(join(dir, ".git"))) return dir;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(this.cacheDir, "repos"), { recursive: true });
    const mirror = this.source.mirrors ? findMirror(this.source.mirrors, repo) : null;
    if (mirror) {
      // --shared: objects stay in the mirror (no copy); refs are pruned at each checkout.
      await git(this.cacheDir, ["clone", "--quiet", "--no-checkout", "--shared", mirror, dir]);
    } else if (this.source.network ?? true) {
      await git(this.cacheDir, ["clone", "--quiet", "--no-checkout", `https://github.com/${repo}.git`, dir]);
    } else {
      throw new ContextSmithError("PATH_NOT_FOUND", `No local copy of ${repo}${this.source.mirrors ? ` in ${this.source.mirrors} (looked for ${repo.replace("/", "+")}/repo)` : ""}, and the network is off.`);
    }
    await git(dir, ["config", "core.logAllRefUpdates", "false"]);
    await git(dir, ["config", "gc.auto", "0"]);
    return dir;
  }

  /** Deletes every ref and reflog: only HEAD (detached at the base commit) reaches anything. */
  async #pruneRefs(root: string): Promise<void> {
    const refs = (await git(root, ["for-each-ref", "--format=%(refname)"])).split("\n").filter((r) => r !== "");
    if (refs.length > 0) await git(root, ["update-ref", "--no-deref", "--stdin"], refs.map((r) => `delete ${r}\n`).join(""));
    await git(root, ["reflog", "expire", "--expire=now", "--all"]);
    rmSync(join(root, ".git", "logs"), { recursive: true, force: true });
    rmSync(join(root, ".git", "FETCH_HEAD"), { force: true });
    rmSync(join(root, ".git", "ORIG_HEAD"), { force: true });
  }
}
