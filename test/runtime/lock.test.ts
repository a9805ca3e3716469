import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acquireWriteLock } from "../../src/runtime/lock.js";

describe("write lock", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ctxsmith-lock-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A pid that certainly belongs to no running process: a child that has already exited. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    return Number(child.stdout);
  }

  it("is exclusive, and is released", async () => {
    const lock = await acquireWriteLock(dir, { wait: false });
    expect(existsSync(join(dir, "write.lock"))).toBe(true);
    lock.release();
    expect(existsSync(join(dir, "write.lock"))).toBe(false);
  });

  it("fails at once with LOCKED when held by a live process and not waiting", async () => {
    // This very process is alive; a lock naming our parent pid looks like another live writer.
    writeFileSync(join(dir, "write.lock"), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: Date.now() }));
    await expect(acquireWriteLock(dir, { wait: false })).rejects.toMatchObject({ code: "LOCKED" });
  });

  it("waits for a live holder, saying so once, and then takes the lock", async () => {
    writeFileSync(join(dir, "write.lock"), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: Date.now() }));
    const waits: number[] = [];
    const pending = acquireWriteLock(dir, { wait: true, pollMs: 20, onWait: (o) => waits.push(o.pid) });
    await new Promise((r) => setTimeout(r, 100));
    rmSync(join(dir, "write.lock"));
    const lock = await pending;
    expect(waits).toEqual([process.ppid]);
    lock.release();
  });

  it("takes over a stale lock left by a killed process", async () => {
    writeFileSync(join(dir, "write.lock"), JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: Date.now() }));
    const lock = await acquireWriteLock(dir, { wait: false });
    lock.release();
  });

  it("can be cancelled while waiting", async () => {
    writeFileSync(join(dir, "write.lock"), JSON.stringify({ pid: process.ppid, host: hostname(), startedAt: Date.now() }));
    const abort = new AbortController();
    const pending = acquireWriteLock(dir, { wait: true, pollMs: 20, signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ code: "ABORTED" });
  });
});
