import type { NoteView } from "./types.js";

/** How a note's status reads, wherever a note is shown. */
const STATUS: Record<NoteView["status"], string> = {
  current: "",
  changed: "code changed since this note",
  missing: "its code no longer exists",
};

/** What a note is pinned to: `Class.method (path)` or the file. */
export function describeTarget(n: NoteView): string {
  return n.target.kind === "symbol" ? `${n.target.qualifiedName} (${n.location?.path ?? n.target.path})` : n.target.path;
}

/** One note: id, target and line, date, status, then its text indented. */
export function formatNote(n: NoteView): string {
  const status = STATUS[n.status] ? `  [${STATUS[n.status]}]` : "";
  const at = n.location ? `:${n.location.startLine}` : "";
  return `${n.id}  ${describeTarget(n)}${at}  ${n.createdAt.slice(0, 10)}${status}\n    ${n.text.replace(/\n/g, "\n    ")}\n`;
}

/** The notes section of a packed context: one line per note, with what it is pinned to and its status. */
export function renderNotes(notes: readonly NoteView[]): string {
  const lines = notes.map((n) => {
    const where = n.target.kind === "symbol" ? `${n.location?.path ?? n.target.path}:${n.target.qualifiedName}` : n.target.path;
    const status = STATUS[n.status] ? ` (${STATUS[n.status]})` : "";
    return `- ${where}${status}: ${n.text.replace(/\s*\n\s*/g, " ")}`;
  });
  return `### Notes\n${lines.join("\n")}\n`;
}
