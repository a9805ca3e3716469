import { resolve } from "node:path";

/** The CLI's I/O, injected so commands can be driven from tests. */
export interface CliIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WriteStream | NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  signal?: AbortSignal;
  resolvePath(path: string): string;
}

export function processIO(signal?: AbortSignal): CliIO {
  const cwd = process.cwd();
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal,
    resolvePath: (path) => resolve(cwd, path),
  };
}
