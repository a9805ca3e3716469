/** Every failure a user can cause or meet has one of these codes. */
export type ErrorCode =
  | "PATH_NOT_FOUND"
  | "NOT_A_DIRECTORY"
  | "LOCKED"
  | "INDEX_CORRUPT"
  | "NO_INDEX"
  | "NOT_FOUND"
  | "GIT_FAILED"
  | "ALREADY_EXISTS"
  | "DEPENDENCY_CYCLE"
  | "REGISTRY_DAMAGED"
  | "BUSY"
  | "WORKER_FAILED"
  | "ABORTED"
  | "INVALID_ARGUMENT"
  | "IO_ERROR"
  | "INTERNAL";

/**
 * The one error type of ContextSmith. It crosses worker and process boundaries as
 * `{ code, message, data }` (see {@link ContextSmithError.toJSON} and {@link ContextSmithError.from}).
 */
export class ContextSmithError extends Error {
  override readonly name = "ContextSmithError";

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The serialisable form used across worker threads and `--json` output. */
  toJSON(): { code: ErrorCode; message: string; data?: Record<string, unknown> } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error that crossed a boundary; anything unknown becomes `fallback`. */
  static from(value: unknown, fallback: ErrorCode = "WORKER_FAILED"): ContextSmithError {
    if (value instanceof ContextSmithError) return value;
    if (value !== null && typeof value === "object" && "code" in value && "message" in value) {
      const { code, message, data } = value as { code: unknown; message: unknown; data?: unknown };
      if (typeof code === "string" && typeof message === "string" && isErrorCode(code)) {
        return new ContextSmithError(code, message, data as Record<string, unknown> | undefined);
      }
    }
    const io = ioError(value);
    if (io) return io;
    const message = value instanceof Error ? value.message : String(value);
    return new ContextSmithError(fallback, message);
  }
}

/** What the system said, and what to do about it, for the file-system errors a user can meet. */
const IO_ADVICE: Record<string, string> = {
  EACCES: "permission denied: give this user access, or point --index-dir somewhere writable",
  EPERM: "operation not permitted: give this user access, or point --index-dir somewhere writable",
  EROFS: "the file system is read-only: point --index-dir somewhere writable",
  ENOSPC: "the disk is full: free some space and run again (the index is as it was before this run)",
  EDQUOT: "the disk quota is used up: free some space and run again (the index is as it was before this run)",
  EISDIR: "a folder is where a file should be: move it away and run again",
  ENOTDIR: "a file is where a folder should be: move it away and run again",
  EMFILE: "too many open files: raise the limit (ulimit -n) and run again",
};

/** A Node file-system error (or LMDB's "No space left on device") as one clear IO_ERROR, else null. */
function ioError(value: unknown): ContextSmithError | null {
  if (!(value instanceof Error)) return null;
  const { code, path } = value as NodeJS.ErrnoException;
  const errno = typeof code === "string" && code in IO_ADVICE ? code : /No space left on device|MDB_MAP_FULL/i.test(value.message) ? "ENOSPC" : null;
  if (!errno) return null;
  return new ContextSmithError("IO_ERROR", `${path ? `${path}: ` : ""}${IO_ADVICE[errno]}.`, { errno });
}

const CODES: ReadonlySet<string> = new Set<ErrorCode>([
  "PATH_NOT_FOUND",
  "NOT_A_DIRECTORY",
  "LOCKED",
  "INDEX_CORRUPT",
  "NO_INDEX",
  "NOT_FOUND",
  "GIT_FAILED",
  "ALREADY_EXISTS",
  "DEPENDENCY_CYCLE",
  "REGISTRY_DAMAGED",
  "BUSY",
  "WORKER_FAILED",
  "ABORTED",
  "INVALID_ARGUMENT",
  "IO_ERROR",
  "INTERNAL",
]);

function isErrorCode(code: string): code is ErrorCode {
  return CODES.has(code);
}
