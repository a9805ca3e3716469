import { describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";

describe("ContextSmithError.from", () => {
  const errno = (code: string, path?: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: raw system message`), { code, path });

  it("turns the file-system errors a user can meet into one IO_ERROR line that says what to do", () => {
    const denied = ContextSmithError.from(errno("EACCES", "/repo/.contextsmith/write.lock"), "INTERNAL");
    expect(denied).toMatchObject({ code: "IO_ERROR", data: { errno: "EACCES" } });
    expect(denied.message).toBe("/repo/.contextsmith/write.lock: permission denied: give this user access, or point --index-dir somewhere writable.");
    expect(ContextSmithError.from(errno("EROFS"), "INTERNAL").message).toMatch(/read-only: point --index-dir somewhere writable/);
    expect(ContextSmithError.from(errno("EISDIR", "/x"), "INTERNAL").message).toMatch(/^\/x: a folder is where a file should be/);
  });

  it("says a full disk leaves the index as it was, for Node's ENOSPC and LMDB's message alike", () => {
    for (const error of [errno("ENOSPC", "/repo/.contextsmith/index.lmdb"), new Error("Commit failed (see commitError for details): No space left on device")]) {
      const e = ContextSmithError.from(error, "INTERNAL");
      expect(e.code).toBe("IO_ERROR");
      expect(e.message).toMatch(/the disk is full: free some space and run again \(the index is as it was before this run\)/);
    }
  });

  it("keeps other errors as they are, under the fallback code", () => {
    expect(ContextSmithError.from(new Error("boom"), "INTERNAL")).toMatchObject({ code: "INTERNAL", message: "boom" });
    expect(ContextSmithError.from(errno("ECONNRESET"), "WORKER_FAILED")).toMatchObject({ code: "WORKER_FAILED" });
  });
});
