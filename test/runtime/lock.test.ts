import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
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

  /** A lock file as another writer left it, its heartbeat `ageMs` old. */
  function lockOf(owner: { pid: number; host: string }, ageMs: number): string {
    const path = join(dir, "write.lock");
    writeFileSync(path, JSON.stringify({ ...owner, startedAt: Date.now() - ageMs }));
    const then = new Date(Date.now() - ageMs);
    utimesSync(path, then, then);
    return path;
  }

  it("takes over, with a warning, a lock whose heartbeat stopped: another host's, or a live pid that is not the writer", async () => {
    for (const owner of [{ pid: 4242, host: "ci-runner-7" }, { pid: 1, host: hostname() }]) {
      lockOf(owner, 300_000);
      const taken: string[] = [];
      const lock = await acquireWriteLock(dir, { wait: false, onTakeover: (o, why) => taken.push(`${o?.pid}: ${why}`) });
      expect(taken).toEqual([expect.stringMatching(new RegExp(`^${owner.pid}: its heartbeat stopped 30\\d s ago$`))]);
      lock.release();
    }
  });

  it("waits for a lock with a live heartbeat on another host, and gives up after the wait timeout", async () => {
    lockOf({ pid: 4242, host: "ci-runner-7" }, 0);
    await expect(acquireWriteLock(dir, { wait: false })).rejects.toMatchObject({ code: "LOCKED" });
    const waits: number[] = [];
    const error = await acquireWriteLock(dir, { wait: true, pollMs: 10, waitTimeoutMs: 100, onWait: (o) => waits.push(o.pid) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "LOCKED", message: expect.stringMatching(/Gave up after waiting .*pid 4242 on host ci-runner-7.*delete .*write\.lock/) });
    expect(waits).toEqual([4242]);
  });

  it("keeps its own heartbeat while held, so a waiting writer does not take it over", async () => {
    const lock = await acquireWriteLock(dir, { wait: false, heartbeatMs: 20 });
    const path = join(dir, "write.lock");
    const then = new Date(Date.now() - 120_000);
    utimesSync(path, then, then);
    await new Promise((r) => setTimeout(r, 120));
    expect(Date.now() - statSync(path).mtimeMs).toBeLessThan(5_000);
    await expect(acquireWriteLock(dir, { wait: false, staleMs: 60_000 })).rejects.toMatchObject({ code: "LOCKED" });
    lock.release();
  });

  it("fails with IO_ERROR when the lock cannot be read, instead of spinning", async () => {
    mkdirSync(join(dir, "write.lock"));
    await expect(acquireWriteLock(dir, { wait: true, waitTimeoutMs: 1000 })).rejects.toMatchObject({ code: "IO_ERROR", message: expect.stringContaining("Cannot read the lock") });
  });

  it("lets one of two processes that judged a lock stale take it over", async () => {
    lockOf({ pid: 4242, host: "ci-runner-7" }, 300_000);
    const taken: string[] = [];
    const locks = [
      acquireWriteLock(dir, { wait: true, pollMs: 10, onTakeover: () => taken.push("a") }),
      acquireWriteLock(dir, { wait: true, pollMs: 10, onTakeover: () => taken.push("b") }),
    ];
    const first = await Promise.race(locks);
    expect(taken).toHaveLength(1);
    // The other waits for the first, and gets the lock once it is released: one after the other, never at once.
    first.release();
    const both = await Promise.all(locks);
    both.find((l) => l !== first)!.release();
    expect(taken).toHaveLength(1);
  });
});
