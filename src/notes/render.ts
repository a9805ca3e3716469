import type { NoteView } from "./types.js";

const STATUS: Record<NoteView["status"], string> = {
  current: "",
  changed: " (code changed since this note)",
  missing: " (its code no longer exists)",
};

/** The notes section of a packed context: one line per note, with what it is pinned to and its status. */
export function renderNotes(notes: readonly NoteView[]): string {
  const lines = notes.map((n) => {
    const where = n.target.kind === "symbol" ? `${n.location?.path ?? n.target.path}:${n.target.qualifiedName}` : n.target.path;
    return `- ${where}${STATUS[n.status]}: ${n.text.replace(/\s*\n\s*/g, " ")}`;
  });
  return `### Notes\n${lines.join("\n")}\n`;
}
