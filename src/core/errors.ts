/** Every failure a user can cause or meet has one of these codes. */
export type ErrorCode =
  | "PATH_NOT_FOUND"
  | "NOT_A_DIRECTORY"
  | "LOCKED"
  | "INDEX_CORRUPT"
  | "NO_INDEX"
  | "NOT_FOUND"
  | "GIT_FAILED"
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
    const message = value instanceof Error ? value.message : String(value);
    return new ContextSmithError(fallback, message);
  }
}

const CODES: ReadonlySet<string> = new Set<ErrorCode>([
  "PATH_NOT_FOUND",
  "NOT_A_DIRECTORY",
  "LOCKED",
  "INDEX_CORRUPT",
  "NO_INDEX",
  "NOT_FOUND",
  "GIT_FAILED",
  "WORKER_FAILED",
  "ABORTED",
  "INVALID_ARGUMENT",
  "IO_ERROR",
  "INTERNAL",
]);

function isErrorCode(code: string): code is ErrorCode {
  return CODES.has(code);
}
