import type { ProgressEvent } from "../core/types.js";

export type ProgressMode = "auto" | "bar" | "json" | "none";

/**
 * Renders progress on stderr: a redrawn bar on a terminal, JSON lines for tools
 * (`--progress json`), only the lock's news when piped, nothing with `--quiet`.
 */
export function progressRenderer(mode: ProgressMode, stream: NodeJS.WriteStream = process.stderr): {
  onProgress: (event: ProgressEvent) => void;
  finish: () => void;
} {
  const effective = mode === "auto" ? (stream.isTTY ? "bar" : "none") : mode;
  // Piped, a command that waits for another writer (or takes over its lock) still says so: silence
  // would look like a hang.
  if (effective === "none") return { onProgress: mode === "auto" ? (e) => void (e.stage === "lock" && stream.write(`contextsmith: ${e.message}\n`)) : () => undefined, finish: () => undefined };
  if (effective === "json") {
    return { onProgress: (e) => stream.write(`${JSON.stringify(e)}\n`), finish: () => undefined };
  }
  let drawn = false;
  let lastDraw = 0;
  const draw = (line: string, force = false): void => {
    const now = Date.now();
    if (!force && now - lastDraw < 80) return; // redraw at most ~12 times a second
    lastDraw = now;
    const width = Math.max(20, (stream.columns || 80) - 1);
    stream.write(`\r\x1b[2K${line.slice(0, width)}`);
    drawn = true;
  };
  return {
    onProgress(e) {
      switch (e.stage) {
        case "lock":
          draw(e.message, true);
          break;
        case "walk":
          draw(`found ${e.files} files`, true);
          break;
        case "plan":
          draw(`${e.toRead} to read, ${e.unchanged} unchanged, ${e.removed} removed`, true);
          break;
        case "parse":
          draw(`parsing ${bar(e.total === 0 ? 1 : e.done / e.total)} ${e.done}/${e.total} files`, e.done === e.total);
          break;
        case "git":
          draw(`history: ${e.commits} new commits`, true);
          break;
        case "embed":
          draw(`embedding ${bar(e.total === 0 ? 1 : e.done / e.total)} ${e.done}/${e.total} files · ${e.embedded} summaries embedded`, e.done === e.total);
          break;
        case "download": {
          const mb = (n: number): string => (n / 1048576).toFixed(1);
          draw(`downloading ${e.model} ${e.file} ${e.total ? `${bar(e.received / e.total)} ${mb(e.received)}/${mb(e.total)} MB` : `${mb(e.received)} MB`}`, e.received === e.total);
          break;
        }
        case "resolve":
          draw(`resolving calls ${bar(e.total === 0 ? 1 : e.done / e.total)} ${e.done}/${e.total} files`, e.done === e.total);
          break;
        case "lexical":
        case "graph":
        case "history":
          draw(e.message, true);
          break;
        case "done":
          break;
      }
    },
    finish() {
      if (drawn) stream.write("\r\x1b[2K");
    },
  };
}

/** A 24-cell bar and the percentage. */
function bar(share: number): string {
  const cells = 24;
  const full = Math.round(Math.min(1, share) * cells);
  return `${"█".repeat(full)}${"░".repeat(cells - full)} ${Math.round(Math.min(1, share) * 100)}%`;
}
