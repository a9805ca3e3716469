import type { NoteView } from "./types.js";

/** What a note is pinned to: `Class.method (path)` or the file. */
export function describeTarget(n: NoteView): string {
  return n.target.kind === "symbol" ? `${n.target.qualifiedName} (${n.location?.path ?? n.target.path})` : n.target.path;
}

/** One note: id, target and line, date, status, then its text indented. */
export function formatNote(n: NoteView): string {
  const status = n.status === "changed" ? "  [code changed since this note]" : n.status === "missing" ? "  [its code no longer exists]" : "";
  const at = n.location ? `:${n.location.startLine}` : "";
  return `${n.id}  ${describeTarget(n)}${at}  ${n.createdAt.slice(0, 10)}${status}\n    ${n.text.replace(/\n/g, "\n    ")}\n`;
}
