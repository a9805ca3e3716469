import { createHash } from "node:crypto";
import { chmodSync, lstatSync, rmSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextSmithError } from "../core/errors.js";

/** What the CLI may ask the workspace server that holds a data folder. */
export type ControlOp = "models" | "unload";

/** A request line is at most this long: anything longer is not ours. */
const MAX_LINE = 4096;
/** A client that says nothing for this long is let go. */
const IDLE_MS = 5_000;
/** Clients served at once; more are refused until one is done. */
const MAX_CLIENTS = 8;
/** How long the CLI waits for the server's answer. */
const ANSWER_TIMEOUT_MS = 15_000;
/** Unix socket paths longer than this fail to bind (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/**
 * Where the workspace server of `dataDir` listens for the CLI: `control.sock` in the data folder
 * (only its owner may connect), or, when that path is too long for a socket, a file named by the
 * folder's hash in the user's runtime folder; a named pipe on Windows.
 */
export function controlPath(dataDir: string): string {
  const hash = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  if (process.platform === "win32") return `\\\\.\\pipe\\contextsmith-${hash}`;
  const inside = join(dataDir, "control.sock");
  if (inside.length <= MAX_SOCKET_PATH) return inside;
  return join(process.env.XDG_RUNTIME_DIR || tmpdir(), `contextsmith-${process.getuid?.() ?? "u"}-${hash}.sock`);
}

/**
 * Serves the control channel of a workspace server: one JSON request per line
 * (`{"op":"models"}`), one JSON answer per line (`{"ok":true,"result":…}` or
 * `{"ok":false,"error":{code,message}}`), then the connection ends. The caller holds the data
 * folder's instance lock, so a socket left by a dead server is removed first. Hostile clients get
 * little: a line cap, an idle timeout, a cap on clients at once.
 */
export async function serveControl(
  dataDir: string,
  handle: (op: ControlOp) => Promise<unknown>,
  log: (line: string) => void = () => undefined,
): Promise<{ close(): Promise<void> }> {
  const path = controlPath(dataDir);
  const unix = process.platform !== "win32";
  if (unix) rmSync(path, { force: true });
  const clients = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    clients.add(socket);
    socket.once("close", () => clients.delete(socket));
    answer(socket, handle);
  });
  server.maxConnections = MAX_CLIENTS;
  // Past listening, a failed accept (no file descriptors left) is logged, never a crash.
  server.on("error", (error) => log(`contextsmith: control channel: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    // Created readable by its owner alone: no moment with the umask's permissions.
    const umask = unix ? process.umask(0o077) : 0;
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
    if (unix) process.umask(umask);
  });
  let identity: string | null = null;
  if (unix) {
    chmodSync(path, 0o600);
    const stat = lstatSync(path);
    identity = `${stat.dev}:${stat.ino}`;
  }
  return {
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of clients) socket.destroy();
        server.close(() => resolve());
        // Only our own socket: a server that took the data folder over may have made a new one.
        if (identity !== null) {
          try {
            const stat = lstatSync(path);
            if (`${stat.dev}:${stat.ino}` === identity) rmSync(path, { force: true });
          } catch {
            // already gone
          }
        }
      }),
  };
}

function answer(socket: Socket, handle: (op: ControlOp) => Promise<unknown>): void {
  let buffer = "";
  let done = false;
  socket.setEncoding("utf8");
  socket.setTimeout(IDLE_MS, () => socket.destroy());
  socket.on("error", () => undefined); // a client gone mid-answer
  const reply = (value: unknown): void => {
    done = true;
    socket.removeAllListeners("data");
    socket.end(`${JSON.stringify(value)}\n`);
  };
  socket.on("data", (chunk: string) => {
    if (done) return;
    buffer += chunk;
    const nl = buffer.indexOf("\n");
    if ((nl < 0 ? buffer.length : nl) > MAX_LINE) return reply({ ok: false, error: { code: "INVALID_ARGUMENT", message: "request too long" } });
    if (nl < 0) return;
    let op: unknown;
    try {
      op = (JSON.parse(buffer.slice(0, nl)) as { op?: unknown } | null)?.op;
    } catch {
      return reply({ ok: false, error: { code: "INVALID_ARGUMENT", message: "not a JSON request" } });
    }
    if (op !== "models" && op !== "unload") return reply({ ok: false, error: { code: "INVALID_ARGUMENT", message: `unknown operation ${JSON.stringify(op) ?? "undefined"}` } });
    done = true;
    socket.removeAllListeners("data");
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
