import { lstatSync, readdirSync, type Stats } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { execa } from "execa";
import ignore, { type Ignore } from "ignore";
import { classifyPath, headerLanguage, isAmbiguousHeader } from "../core/languages.js";
import { faultUnreadable } from "../core/fault.js";
import { RepoFiles } from "../core/repo-file.js";
import type { Language, SkipReason } from "../core/types.js";

/** A file the walk found worth reading. */
export interface WalkedFile {
  /** Repository-relative, with `/`. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Parsed language, or null for text indexed lexically only. */
  language: Language | null;
}

export interface WalkResult {
  files: WalkedFile[];
  /** Files left out by name or stat alone, by reason. */
  skipped: Partial<Record<SkipReason, number>>;
  /** Whether the root is inside a git work tree (the walk used git's own ignore rules). */
  git: boolean;
  /**
   * What could not be looked at (no permission): folders that could not be listed, as `dir/`
   * (`""`: the root itself), and files git listed that could not be stat'ed. Their stored records are kept, not removed.
   */
  unreadable: string[];
}

export interface WalkOptions {
  root: string;
  /** Absolute path of the index folder, never walked. */
  indexDir: string;
  maxFileBytes: number;
  /**
   * Whether the index holds the file as it is now (its size and modification time): such a file is
   * not read, and the folders on its way are checked for links only for the files that will be (on
   * babel, an lstat of each of 13,000 folders took 50–60 ms of every run).
   */
  unchanged?: (path: string, stat: Stats) => boolean;
}

/** Folders that are never source, walked by neither git nor the fallback. */
const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", ".hg", ".svn", ".contextsmith"]);
const ALWAYS_SKIPPED_PATH = new RegExp(`(^|/)(${[...ALWAYS_SKIPPED_DIRS].map((d) => d.replace(/\./g, "\\.")).join("|")})(/|$)`);
/** Skipped by the non-git fallback, where no .gitignore may say so. */
const FALLBACK_SKIPPED_DIRS: ReadonlySet<string> = new Set(["node_modules", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"]);
/**
 * Whether the walk never reads a folder of this name (a watcher need not watch it): in a git work
 * tree git's ignore rules decide the rest (a tracked `venv/` is indexed), elsewhere the usual
 * dependency and cache folders are skipped too.
 */
export function isSkippedFolder(name: string, inGit: boolean): boolean {
  return ALWAYS_SKIPPED_DIRS.has(name) || (!inGit && FALLBACK_SKIPPED_DIRS.has(name));
}

/** Paths this long cannot be LMDB keys. */
const MAX_PATH_BYTES = 1000;

/**
 * Lists the files to index. In a git work tree, git decides what is ignored (nested
 * `.gitignore`, `.git/info/exclude`, the global excludes file); elsewhere the `ignore` package
 * applies every `.gitignore` found on the way down. Symlinks are never followed, so nothing
 * outside the root is read and link loops cannot trap the walk.
 */
export async function walk(options: WalkOptions): Promise<WalkResult> {
  const listed = await gitListFiles(options.root);
  const skipped: Partial<Record<SkipReason, number>> = {};
  const count = (reason: SkipReason): void => {
    skipped[reason] = (skipped[reason] ?? 0) + 1;
  };
  const indexRel = relative(options.root, options.indexDir).split(sep).join("/");
  const files: WalkedFile[] = [];
  const unreadable: string[] = [];
  const consider = (path: string, stat: Stats | null | "unreadable"): void => {
    if (indexRel && !indexRel.startsWith("..") && (path === indexRel || path.startsWith(`${indexRel}/`))) return;
    if (ALWAYS_SKIPPED_PATH.test(path)) return;
    if (!stat) return; // listed by git but deleted from the work tree
    if (stat === "unreadable") return void unreadable.push(path);
    if (stat.isSymbolicLink()) return count("symlink");
    if (!stat.isFile()) return; // submodules, sockets, fifos
    const cls = classifyPath(path);
    if (cls.kind === "lockfile") return count("lockfile");
    if (cls.kind === "generated") return count("generated");
    if (cls.kind === "unsupported") return count("unsupported");
    if (stat.size > options.maxFileBytes) return count("too-large");
    if (Buffer.byteLength(path) > MAX_PATH_BYTES) return count("unsupported");
    files.push({ path, size: stat.size, mtimeMs: stat.mtimeMs, language: cls.kind === "parsed" ? cls.language : null });
  };

  if (listed) {
    const prefix = options.root.endsWith(sep) ? options.root : options.root + sep;
    const inside = insideRoot(options.root);
    for (const path of listed) {
      // git lists index entries; a tracked folder since replaced by a symlink would lead out. A
      // file the index holds unchanged is not read here (and a reader refuses a link on its way).
      const stat = lstatOrUnreadable(prefix + path);
      const unchanged = stat !== null && stat !== "unreadable" && options.unchanged?.(path, stat) === true;
      if (!unchanged && !inside(dirname(path))) count("symlink");
      else consider(path, stat);
    }
  } else {
    walkDirectory(new RepoFiles(options.root), options.root, "", [], consider, (dir) => unreadable.push(dir === "" ? "" : `${dir}/`));
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (headerLanguage(files.map((f) => f.path)) === "cpp") for (const f of files) if (isAmbiguousHeader(f.path)) f.language = "cpp";
  return { files, skipped, git: listed !== null, unreadable };
}

/**
 * `git ls-files` of the work tree under `root`, or null when the root is not inside one (git then
 * fails) or git is absent. Paths are relative to the root, which may be a subfolder of the work tree.
 */
async function gitListFiles(root: string): Promise<string[] | null> {
  const result = await execa("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "."], {
    cwd: root,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 1024 * 1024 * 1024,
    encoding: "buffer",
  });
  if (result.failed || result.exitCode !== 0) return null;
  // Each path decoded on its own: split from the decoded output, every path would be a view that
  // keeps all of it alive for the run, in two bytes a character wherever one path is not ASCII
  // (22 MB at 108,000 files, where the paths alone take 10).
  const out = Buffer.from(result.stdout.buffer, result.stdout.byteOffset, result.stdout.byteLength);
  const seen = new Set<string>();
  for (let start = 0, end = out.indexOf(0); start < out.length; start = end + 1, end = out.indexOf(0, start)) {
    if (end < 0) end = out.length;
    if (end === start) continue;
    seen.add(out.toString("utf8", start, end)); // a file both staged and unmerged is listed twice
  }
  return [...seen];
}

/**
 * Whether a folder (relative, with `/`) is reached without passing through a symlink: its
 * parent is, and it is no symlink itself. One lstat per distinct folder, cached.
 */
function insideRoot(root: string): (dir: string) => boolean {
  const cache = new Map<string, boolean>([[".", true]]);
  const check = (dir: string): boolean => {
    let verdict = cache.get(dir);
    if (verdict === undefined) {
      verdict = check(dirname(dir)) && lstatOrNull(join(root, dir))?.isSymbolicLink() !== true;
      cache.set(dir, verdict);
    }
    return verdict;
  };
  return check;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** The stat of a listed file; null when it is gone, "unreadable" when it cannot be looked at. */
function lstatOrUnreadable(path: string): Stats | null | "unreadable" {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EACCES" || code === "EPERM" ? "unreadable" : null;
  }
}

/** A .gitignore larger than this is not a list of patterns anyone wrote. */
const MAX_IGNORE_BYTES = 1024 * 1024;

interface Rules {
  base: string;
  ig: Ignore;
}

function walkDirectory(
  files: RepoFiles,
  root: string,
  dir: string,
  inherited: Rules[],
  consider: (path: string, stat: Stats | null) => void,
  cannotList: (dir: string) => void,
): void {
  const abs = dir ? join(root, dir) : root;
  let rules = inherited;
  // A .gitignore that is a link (out of the root, or anywhere) is not read.
  const gitignore = files.readText(dir ? `${dir}/.gitignore` : ".gitignore", { maxBytes: MAX_IGNORE_BYTES });
  if (gitignore !== null) rules = [...inherited, { base: dir, ig: ignore().add(gitignore) }];
  let entries;
  try {
    if (faultUnreadable(dir)) throw Object.assign(new Error(`EACCES: ${abs}`), { code: "EACCES" });
    entries = readdirSync(abs, { withFileTypes: true });
  } catch (error) {
    // Gone meanwhile: nothing in it. Unreadable: what the index has of it is kept, not dropped.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") cannotList(dir);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    const isDir = entry.isDirectory();
    if (isDir && (ALWAYS_SKIPPED_DIRS.has(entry.name) || FALLBACK_SKIPPED_DIRS.has(entry.name))) continue;
    if (isIgnored(rules, path, isDir)) continue;
    if (isDir) walkDirectory(files, root, path, rules, consider, cannotList);
    else consider(path, lstatOrNull(join(root, path)));
  }
}

/** Git's precedence: a deeper `.gitignore` overrides a shallower one, negations included. */
function isIgnored(rules: Rules[], path: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, ig } of rules) {
    const rel = base ? path.slice(base.length + 1) : path;
    const verdict = ig.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}


