import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { execa } from "execa";
import { ContextSmithError } from "../../core/errors.js";

/** What a ref file or `.git` file can hold; anything longer is not git's. */
const MAX_SMALL_FILE = 4096;
/** packed-refs is read whole only up to this size; a larger one is left to git. */
const MAX_PACKED_REFS = 16 * 1024 * 1024;
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Environment that changes where or how git finds the repository: then git alone is asked. */
const GIT_LOCATION_ENV = ["GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"];

/**
 * HEAD's commit, or null outside a repository or before the first commit. Every index run asks,
 * no-change runs included, and a `git rev-parse` process cost one 15–25 ms of its 0.2 s: so HEAD is
 * first read from the files git keeps it in ({@link headFromFiles}), and git is asked only where
 * they do not say plainly. Throws GIT_FAILED where git could not be run to ask.
 */
export async function gitHead(root: string): Promise<string | null> {
  const read = headFromFiles(root);
  if (read !== undefined) return read;
  const r = await execa("git", ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], { cwd: root, reject: false });
  if (r.exitCode === 0) return r.stdout.trim();
  // git that could not start or was killed said nothing: taken for "no commit", that would record
  // an empty history as current (until HEAD moved); the history stage warns and the next run asks again.
  if (r.exitCode === undefined) throw new ContextSmithError("GIT_FAILED", `Could not ask git for HEAD: ${r.shortMessage}`);
  return null;
}

/**
 * HEAD's commit as git's files give it, or undefined where they do not say it plainly and git must
 * be asked. The repository is the first `.git` folder or `.git` file (a linked worktree's, a
 * submodule's) from `root` up. Read: `HEAD`, detached or naming a branch; that branch's loose ref in
 * the common folder; else its line in `packed-refs`. Left to git: a repository git may refuse (not
 * the user's: git's `safe.directory`), one placed by the environment (`GIT_DIR`, …), the reftable
 * format, a ref naming another ref, a branch not yet born, and anything malformed.
 */
export function headFromFiles(root: string, env: NodeJS.ProcessEnv = process.env): string | null | undefined {
  if (GIT_LOCATION_ENV.some((name) => env[name] !== undefined)) return undefined;
  const gitDir = findGitDir(resolve(root));
  if (!gitDir) return undefined;
  const uid = process.getuid?.();
  const owner = statOrNull(gitDir);
  if (!owner?.isDirectory() || (uid !== undefined && owner.uid !== uid)) return undefined;
  const commonPath = smallFile(join(gitDir, "commondir"));
  const commonDir = commonPath === null ? gitDir : resolve(gitDir, commonPath.trim());
  if (statOrNull(join(commonDir, "reftable")) !== null) return undefined;
  const head = smallFile(join(gitDir, "HEAD"))?.trim();
  if (head === undefined) return undefined;
  if (OBJECT_ID.test(head)) return head;
  const ref = /^ref: (refs\/heads\/[^\0\s]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split("/").some((part) => part === ".." || part === "." || part === "")) return undefined;
  const loose = smallFile(join(commonDir, ref));
  if (loose !== null) {
    const id = loose.trim();
    return OBJECT_ID.test(id) ? id : undefined;
  }
  return packedRef(join(commonDir, "packed-refs"), ref);
}

/** The `.git` folder (or the folder a `.git` file names) of the work tree holding `dir`. */
function findGitDir(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const dotGit = join(at, ".git");
    const stat = statOrNull(dotGit);
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      const target = /^gitdir: (.+)$/m.exec(smallFile(dotGit) ?? "")?.[1]?.trim();
      return target ? resolve(at, target) : null;
    }
    if (dirname(at) === at) return null;
  }
}

/** The object id a `packed-refs` file gives `ref`, or undefined (not there, or too large to read here). */
function packedRef(path: string, ref: string): string | undefined {
  const text = readSmall(path, MAX_PACKED_REFS);
  if (text === null) return undefined;
  for (const line of text.split("\n")) {
    const space = line.indexOf(" ");
    if (space > 0 && line.slice(space + 1).trimEnd() === ref) {
      const id = line.slice(0, space);
      return OBJECT_ID.test(id) ? id : undefined;
    }
  }
  return undefined;
}

function smallFile(path: string): string | null {
  return readSmall(path, MAX_SMALL_FILE);
}

/** A regular file's text when it is at most `max` bytes; null otherwise (missing, a folder, a FIFO, too large). */
function readSmall(path: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > max) return null;
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.toString("utf8", 0, read);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function statOrNull(path: string): ReturnType<typeof statSync> | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
