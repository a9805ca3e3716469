import { ContextSmithError, type ErrorCode } from "../core/errors.js";

/** The codes of the REST API's errors: the project's own, and those only HTTP has. */
export type HttpErrorCode = ErrorCode | "UNAUTHORIZED" | "FORBIDDEN" | "PAYLOAD_TOO_LARGE" | "METHOD_NOT_ALLOWED";

/** The HTTP status of each of the project's error codes. */
const STATUS: Record<HttpErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  NOT_A_DIRECTORY: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PATH_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  ALREADY_EXISTS: 409,
  DEPENDENCY_CYCLE: 409,
  BUSY: 409,
  NO_INDEX: 409,
  PAYLOAD_TOO_LARGE: 413,
  GIT_FAILED: 502,
  LOCKED: 503,
  INDEX_CORRUPT: 503,
  ABORTED: 503,
  REGISTRY_DAMAGED: 500,
  WORKER_FAILED: 500,
  IO_ERROR: 500,
  INTERNAL: 500,
};

/** An error the API answers with: one JSON shape, `{error: {code, message, data?}}`. */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
    /** The failure behind an INTERNAL error, for the log. */
    readonly detail?: unknown,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.code];
  }

  body(): { error: { code: string; message: string; data?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.data ? { data: this.data } : {}) } };
  }

  /**
   * Any failure as an API error. What is not the project's own error (a bug) is INTERNAL with a
   * plain message: its text and stack are for the server's log, never for the client.
   */
  static from(error: unknown): HttpError {
    if (error instanceof HttpError) return error;
    const err = ContextSmithError.from(error, "INTERNAL");
    if (!(error instanceof ContextSmithError) && err.code === "INTERNAL") {
      return new HttpError("INTERNAL", "An internal error occurred: the server's log has the details. Please report it.", undefined, error);
    }
    return new HttpError(err.code, err.message, err.data);
  }
}
