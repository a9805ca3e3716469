import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";

/** Why a repository file was not read. */
export type RepoFileRefusal =
  /** It does not exist (any more). */
  | "missing"
  /** The path, a folder on it, or the file itself is a symbolic link, or it leads out of the root. */
  | "link"
  /** A folder, a FIFO, a device, a socket. */
  | "not-a-file"
  | "too-large"
  /** Its bytes are not the ones the caller indexed (`expectHash`). */
  | "changed"
  | "unreadable";

/** A file's bytes as read, or why they were not. */
export type RepoFileRead =
  | { ok: true; bytes: Buffer; /** SHA-256 of the bytes, hex. */ hash: string; mtimeMs: number }
  | { ok: false; reason: RepoFileRefusal };

export interface RepoFileOptions {
  /** Refuse a file larger than this many bytes (`too-large`); nothing past it is read. */
  maxBytes: number;
  /** The content hash (SHA-256, hex) the caller indexed: other bytes are refused as `changed`. */
  expectHash?: string;
}

const OPEN_FLAGS =
  constants.O_RDONLY |
  // The last component must not be a link (ELOOP), and opening a FIFO must not wait for a writer.
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/** Where the kernel names an open descriptor's file (Linux); elsewhere the folders are checked before the open. */
const FD_LINKS = "/proc/self/fd";

/**
 * The one way ContextSmith reads a file of a repository (parsing, packing, notes, package.json):
 * the path must be repository-relative and the file reached without any symbolic link — the walk
 * never follows one, so neither does anything that reads what it found. The file is opened without
 * following a link, and the opened descriptor's real path must be the path asked for inside the
 * root's real path: a file swapped for a link to `/etc/passwd`, or a folder on the way swapped for
 * a link out, is refused whatever the timing (on Linux, where the kernel names the descriptor's
 * file; elsewhere the folders are checked just before the open). Only regular files are read, up to
 * `maxBytes`, and `expectHash` refuses bytes other than those indexed, so nothing is ever shown
 * under another version's line numbers.
 *
 * One instance per root and per unit of work (a parse batch, a searcher): it keeps the root's real
 * path.
 */
export class RepoFiles {
  readonly #root: string;
  #realRoot: string | null | undefined;

  constructor(root: string) {
    this.#root = root;
  }

  read(path: string, options: RepoFileOptions): RepoFileRead {
    const realRoot = this.#resolveRoot();
    const rel = normalize(path);
    if (realRoot === null || path === "" || isAbsolute(path) || rel === ".." || rel.startsWith(`..${sep}`)) return { ok: false, reason: "link" };
    const expected = join(realRoot, rel);
    const canCheckFd = process.platform === "linux";
    if (!canCheckFd && !this.#parentsAreReal(realRoot, rel)) return { ok: false, reason: "link" };
    let fd: number;
    try {
      fd = openSync(join(this.#root, rel), OPEN_FLAGS);
    } catch (error) {
      return { ok: false, reason: refusalOf(error) };
    }
    try {
      if (canCheckFd) {
        let real: string;
        try {
          real = readlinkSync(`${FD_LINKS}/${fd}`);
        } catch {
          return { ok: false, reason: "unreadable" };
        }
        if (real !== expected) return { ok: false, reason: "link" };
      }
      const stat = fstatSync(fd);
      if (!stat.isFile()) return { ok: false, reason: "not-a-file" };
      if (stat.size > options.maxBytes) return { ok: false, reason: "too-large" };
      const bytes = readAll(fd, stat.size);
      const hash = createHash("sha256").update(bytes).digest("hex");
      if (options.expectHash !== undefined && hash !== options.expectHash) return { ok: false, reason: "changed" };
      return { ok: true, bytes, hash, mtimeMs: stat.mtimeMs };
    } catch (error) {
      return { ok: false, reason: refusalOf(error) };
    } finally {
      closeSync(fd);
    }
  }

  /** The file's text (UTF-8), or null when it was refused. */
  readText(path: string, options: RepoFileOptions): string | null {
    const read = this.read(path, options);
    return read.ok ? read.bytes.toString("utf8") : null;
  }

  /**
   * The text of a file exactly as it was indexed (its recorded size and content hash), or null:
   * what packing, notes and the graph stage show or read beside the index's line numbers.
   */
  readIndexed(record: { path: string; size: number; hash: string }): string | null {
    return this.readText(record.path, { maxBytes: record.size, expectHash: record.hash });
  }

  #resolveRoot(): string | null {
    if (this.#realRoot === undefined) {
      try {
        this.#realRoot = realpathSync(this.#root);
      } catch {
        this.#realRoot = null;
      }
    }
    return this.#realRoot;
  }

  /** Without a descriptor's name to check: every folder from the root to the file is no link. */
  #parentsAreReal(realRoot: string, rel: string): boolean {
    for (let dir = dirname(rel); dir !== "." && dir !== ""; dir = dirname(dir)) {
      try {
        if (lstatSync(join(realRoot, dir)).isSymbolicLink()) return false;
      } catch {
        return false;
      }
    }
    return true;
  }
}

/** Reads `size` bytes (fewer when the file shrank meanwhile: a later hash check tells). */
function readAll(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, bytes, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return at === size ? bytes : bytes.subarray(0, at);
}

function refusalOf(error: unknown): RepoFileRefusal {
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return "missing";
    case "ELOOP":
    case "EMLINK": // FreeBSD's O_NOFOLLOW on a link
      return "link";
    case "ENOTDIR":
      return "missing";
    case "EISDIR":
      return "not-a-file";
    default:
      return "unreadable";
  }
}
