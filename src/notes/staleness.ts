import { createHash } from "node:crypto";
import type { SymbolInfo } from "../core/types.js";
import type { Note, NoteTarget, NoteView } from "./types.js";

/** What checking notes against the code reads. */
export interface NoteEnvironment {
  /** The content hash of an indexed file, or null when it is not indexed. */
  fileHash(path: string): string | null;
  symbols(path: string): readonly SymbolInfo[];
  /** Files that define `name`. */
  definers(name: string): readonly string[];
  /** The lines of a file as it is now, or null when it cannot be read. */
  lines(path: string): readonly string[] | null;
}

/** The hash a note records: the file's content hash, or SHA-256 of the symbol's lines. */
export function targetHash(env: NoteEnvironment, target: NoteTarget): { hash: string; location: NoteView["location"] } | null {
  if (target.kind === "file") {
    const hash = env.fileHash(target.path);
    const lines = hash ? env.lines(target.path) : null;
    return hash ? { hash, location: { path: target.path, startLine: 1, endLine: Math.max(1, lines?.length ?? 1) } } : null;
  }
  const found = findSymbol(env, target);
  if (!found) return null;
  const lines = env.lines(found.path);
  if (!lines) return null;
  const code = lines.slice(found.symbol.startLine - 1, found.symbol.endLine).map((l) => l.trimEnd()).join("\n");
  return {
    hash: createHash("sha256").update(code).digest("hex"),
    location: { path: found.path, startLine: found.symbol.startLine, endLine: found.symbol.endLine },
  };
}

/** A note with its status: the code is as it was, changed, or gone. */
export function viewNote(env: NoteEnvironment, note: Note): NoteView {
  const now = targetHash(env, note.target);
  if (!now) return { ...note, status: "missing", location: null };
  return { ...note, status: now.hash === note.hash ? "current" : "changed", location: now.location };
}

/** The symbol a note is pinned to: in its file by qualified name, else where it moved to (a unique match elsewhere). */
function findSymbol(env: NoteEnvironment, target: Extract<NoteTarget, { kind: "symbol" }>): { path: string; symbol: SymbolInfo } | null {
  const inFile = env.symbols(target.path).find((s) => s.qualifiedName === target.qualifiedName);
  if (inFile && env.fileHash(target.path)) return { path: target.path, symbol: inFile };
  const elsewhere: Array<{ path: string; symbol: SymbolInfo }> = [];
  for (const path of env.definers(target.name)) {
    for (const symbol of env.symbols(path)) if (symbol.qualifiedName === target.qualifiedName) elsewhere.push({ path, symbol });
  }
  return elsewhere.length === 1 ? elsewhere[0]! : null;
}
