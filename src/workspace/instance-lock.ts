import { mkdirSync } from "node:fs";
import { acquireWriteLock, type WriteLock } from "../runtime/lock.js";

/**
 * One long-running workspace process per data folder (`<data-dir>/instance.lock`): a second one
 * fails at once with `LOCKED`, naming the owner's pid. A lock left by a dead process (or whose
 * heartbeat stopped) is taken over.
 */
export function acquireInstanceLock(dataDir: string): Promise<WriteLock> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return acquireWriteLock(dataDir, {
    file: "instance.lock",
    holder: "workspace server",
    wait: false,
    busyAdvice: "Stop it, or pass --allow-multi-instance to serve anyway.",
  });
}
