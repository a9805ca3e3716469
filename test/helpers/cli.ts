import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built, bundled CLI exactly as installed (tests run after `npm run build`). */
export const CLI = fileURLToPath(new URL("../../dist/ctxsmith.js", import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion. */
export function runCli(args: string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}): CliResult {
  const env = options.env ? { ...process.env, ...options.env } : undefined;
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd, input: options.input, env, encoding: "utf8", timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts the CLI; `onLine` sees each stderr line as it arrives. */
export function startCli(args: string[], onLine?: (line: string, child: ChildProcess) => void, env?: Record<string, string>): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: env ? { ...process.env, ...env } : undefined });
  let stdout = "";
  let stderr = "";
  let pending = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    pending += d;
    let nl = pending.indexOf("\n");
    while (nl >= 0) {
      onLine?.(pending.slice(0, nl), child);
      pending = pending.slice(nl + 1);
      nl = pending.indexOf("\n");
    }
  });
  const done = new Promise<CliResult>((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
  return { child, done };
}
