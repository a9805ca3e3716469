/** What a note is pinned to: a whole file, or one definition in it. */
export type NoteTarget =
  | { kind: "file"; path: string }
  | { kind: "symbol"; path: string; name: string; qualifiedName: string };

/** A decision or gotcha pinned to code, kept beside the index (`<index>/notes/<id>.json`). */
export interface Note {
  id: string;
  text: string;
  /** ISO time of creation. */
  createdAt: string;
  target: NoteTarget;
  /** SHA-256 of the code it was pinned to (the file's content, or the symbol's lines), when it was written. */
  hash: string;
}

/**
 * A note with how its code stands now:
 * - `current`: the code is as it was when the note was written;
 * - `changed`: the code changed since (the note may be out of date);
 * - `missing`: the file or symbol is gone (renamed or deleted): the note is kept and reported.
 */
export interface NoteView extends Note {
  status: "current" | "changed" | "missing";
  /** Where the code is now (the symbol may have moved to another file or other lines). */
  location: { path: string; startLine: number; endLine: number } | null;
}
