import { createHash } from "node:crypto";
import { chmodSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { ContextSmithError } from "../core/errors.js";

/** What the CLI may ask the workspace server that holds a data folder. */
export type ControlOp = "models" | "unload";

/** A request line is at most this long: anything longer is not ours. */
const MAX_LINE = 4096;
/** How long the CLI waits for the server's answer. */
const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Where the workspace server of `dataDir` listens for the CLI: a Unix socket in the data folder
 * (only its owner may connect), a named pipe on Windows.
 */
export function controlPath(dataDir: string): string {
  if (process.platform === "win32") return `\\\\.\\pipe\\contextsmith-${createHash("sha256").update(dataDir).digest("hex").slice(0, 16)}`;
  return join(dataDir, "control.sock");
}

/**
 * Serves the control channel of a workspace server: one JSON request per line
 * (`{"op":"models"}`), one JSON answer per line (`{"ok":true,"result":…}` or
 * `{"ok":false,"error":{code,message}}`). The caller holds the data folder's instance lock, so a
 * socket file left by a dead server is removed first.
 */
export async function serveControl(dataDir: string, handle: (op: ControlOp) => Promise<unknown>): Promise<{ close(): Promise<void> }> {
  const path = controlPath(dataDir);
  if (process.platform !== "win32") rmSync(path, { force: true });
  const server: Server = createServer((socket) => answer(socket, handle));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
  if (process.platform !== "win32") chmodSync(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if (process.platform !== "win32") rmSync(path, { force: true });
      }),
  };
}

function answer(socket: Socket, handle: (op: ControlOp) => Promise<unknown>): void {
  let buffer = "";
  socket.setEncoding("utf8");
  socket.on("error", () => undefined); // a client gone mid-answer
  const reply = (value: unknown): void => void socket.end(`${JSON.stringify(value)}\n`);
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    const nl = buffer.indexOf("\n");
    if (nl < 0) {
      if (buffer.length > MAX_LINE) reply({ ok: false, error: { code: "INVALID_ARGUMENT", message: "request too long" } });
      return;
    }
    const line = buffer.slice(0, nl);
    socket.removeAllListeners("data");
    let op: unknown;
    try {
      op = (JSON.parse(line) as { op?: unknown }).op;
    } catch {
      return reply({ ok: false, error: { code: "INVALID_ARGUMENT", message: "not a JSON request" } });
    }
    if (op !== "models" && op !== "unload") return reply({ ok: false, error: { code: "INVALID_ARGUMENT", message: `unknown operation ${JSON.stringify(op)}` } });
    handle(op).then(
      (result) => reply({ ok: true, result }),
      (error: unknown) => reply({ ok: false, error: ContextSmithError.from(error, "INTERNAL").toJSON() }),
    );
  });
}

/**
 * Asks the workspace server of `dataDir`; null when none is running there.
 * @throws ContextSmithError what the server answered as an error (`BUSY`, …)
 */
export function askServer(dataDir: string, op: ControlOp): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect(controlPath(dataDir));
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ContextSmithError("IO_ERROR", `The workspace server of ${dataDir} did not answer within ${ANSWER_TIMEOUT_MS / 1000} s.`));
    }, ANSWER_TIMEOUT_MS);
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${JSON.stringify({ op })}\n`));
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // No server (no socket, or one left by a server that died): nothing is loaded anywhere we know of.
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(null);
      else reject(ContextSmithError.from(error, "IO_ERROR"));
    });
    socket.on("end", () => {
      clearTimeout(timer);
      try {
        const answer = JSON.parse(text) as { ok: boolean; result?: unknown; error?: unknown };
        if (answer.ok) resolve(answer.result);
        else reject(ContextSmithError.from(answer.error, "INTERNAL"));
      } catch {
        reject(new ContextSmithError("IO_ERROR", `The workspace server of ${dataDir} answered something unreadable.`));
      }
    });
  });
}
