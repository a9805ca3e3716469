import { ContextSmithError } from "../core/errors.js";
import { Runtime } from "../runtime/runtime.js";
import { serveControl } from "./control.js";
import { acquireInstanceLock } from "./instance-lock.js";
import { Workspace, type WorkspaceOptions } from "./workspace.js";

export interface HostOptions extends Omit<WorkspaceOptions, "runtime"> {
  /** Serve even when another workspace server holds the data folder (with a warning). */
  allowMultiInstance?: boolean;
  log: (line: string) => void;
}

/** A workspace held by a long-running server, and what it holds for it. */
export interface HostedWorkspace {
  workspace: Workspace;
  close(): Promise<void>;
}

/**
 * What every workspace server does before it serves (`serve --workspace` over stdio or HTTP): one
 * runtime whose index runs go to the index thread (the serving thread only reads), queries that
 * answer from the committed index while due checks run in the background, the data folder's
 * instance lock (one server per data folder), and the control channel that `ctxsmith models status`
 * and `unload` reach. A workspace of one repository (a {@link SingleRepoRegistry}) takes no lock:
 * it writes nothing of the data folder's.
 */
export async function hostWorkspace(options: HostOptions, exclusive = true): Promise<HostedWorkspace> {
  const { log } = options;
  const runtime = new Runtime({ indexThread: true, keepAlive: 30_000 });
  const workspace = new Workspace({ ...options, runtime, checkEveryMs: options.checkEveryMs ?? 10_000, refreshInBackground: true });
  let lock: { release(): void } | null = null;
  if (exclusive) {
    try {
      lock = await acquireInstanceLock(workspace.dataDir);
    } catch (error) {
      if (!(options.allowMultiInstance && error instanceof ContextSmithError && error.code === "LOCKED")) {
        await workspace.close();
        await runtime.close();
        throw error;
      }
      log(`contextsmith: warning: ${error.message} Serving anyway (--allow-multi-instance).`);
    }
  }
  // The CLI's `models status` and `unload` reach this process's model through the control channel.
  let control: { close(): Promise<void> } | null = null;
  if (lock) {
    try {
      control = await serveControl(workspace.dataDir, async (op) => (op === "models" ? { server: { pid: process.pid }, ...workspace.models() } : { unloaded: await workspace.unload() }), log);
    } catch (error) {
      log(`contextsmith: warning: no control channel (${(error as Error).message}): \`ctxsmith models status\` and \`unload\` will not see this server.`);
    }
  }
  return {
    workspace,
    async close() {
      await control?.close();
      await workspace.close();
      await runtime.close();
      lock?.release();
    },
  };
}
