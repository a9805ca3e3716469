import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ContextSmithError } from "../core/errors.js";
import type { Note } from "./types.js";

const NOTE_FILE = /^([0-9a-f]{8})\.json$/;

/**
 * Notes on disk: one JSON file per note in `<indexDir>/notes/`. Outside the LMDB file, so a
 * rebuild of the index (schema change, corruption) never loses them; one file per note, written
 * to a temporary name and renamed, so two processes adding notes at once never clash and a crash
 * never leaves half a note.
 */
export class NoteStore {
  readonly #dir: string;

  constructor(indexDir: string) {
    this.#dir = join(indexDir, "notes");
  }

  add(note: Omit<Note, "id">): Note {
    try {
      mkdirSync(this.#dir, { recursive: true });
    } catch (error) {
      throw new ContextSmithError("IO_ERROR", `Cannot create the notes folder ${this.#dir}: ${(error as Error).message}`);
    }
    const id = randomBytes(4).toString("hex");
    const full: Note = { id, ...note };
    const tmp = join(this.#dir, `.${id}.${process.pid}.tmp`);
    try {
      writeFileSync(tmp, `${JSON.stringify(full, null, 2)}\n`);
      renameSync(tmp, join(this.#dir, `${id}.json`));
    } catch (error) {
      rmSync(tmp, { force: true });
      throw new ContextSmithError("IO_ERROR", `Cannot write the note: ${(error as Error).message}`);
    }
    return full;
  }

  /** All notes, oldest first. Unreadable note files are skipped (and left in place). */
  list(): Note[] {
    let names: string[];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return [];
    }
    const notes: Note[] = [];
    for (const name of names) {
      if (!NOTE_FILE.test(name)) continue;
      try {
        const note = JSON.parse(readFileSync(join(this.#dir, name), "utf8")) as Note;
        if (typeof note.text === "string" && note.target && typeof note.hash === "string") notes.push(note);
      } catch {
        // A note file edited by hand into invalid JSON: not ours to delete.
      }
    }
    return notes.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  /** Removes a note; false when there is none with that id. */
  remove(id: string): boolean {
    if (!/^[0-9a-f]{8}$/.test(id)) return false;
    try {
      rmSync(join(this.#dir, `${id}.json`));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw new ContextSmithError("IO_ERROR", `Cannot remove the note ${id}: ${(error as Error).message}`);
    }
  }
}
