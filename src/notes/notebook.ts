import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ContextSmithError } from "../core/errors.js";
import { SymbolFinder } from "../graph/lookup.js";
import type { Span } from "../query/types.js";
import type { IndexStore } from "../store/store.js";
import { NoteStore } from "./note-store.js";
import { targetHash, viewNote, type NoteEnvironment } from "./staleness.js";
import type { NoteTarget, NoteView } from "./types.js";

/** The notes of one repository, checked against its index and its files as they are now. */
export class Notebook {
  readonly #notes: NoteStore;
  readonly #env: NoteEnvironment;

  constructor(indexDir: string, root: string, store: IndexStore | null) {
    this.#notes = new NoteStore(indexDir);
    const finder = store ? new SymbolFinder(store) : null;
    this.#env = {
      fileHash: (path) => store?.file(path)?.hash ?? null,
      symbols: (path) => store?.parse.symbols(path) ?? [],
      definers: (name) => finder?.definers(name) ?? [],
      lines: (path) => {
        try {
          return readFileSync(join(root, path), "utf8").split("\n");
        } catch {
          return null;
        }
      },
    };
  }

  /** Pins a note to `target`, recording the hash of its code now. */
  add(text: string, target: NoteTarget): NoteView {
    const now = targetHash(this.#env, target);
    if (!now) throw new ContextSmithError("IO_ERROR", `Cannot read the code of ${target.path}.`);
    return viewNote(this.#env, this.#notes.add({ text, createdAt: new Date().toISOString(), target, hash: now.hash }));
  }

  /** Every note, oldest first, with its status. */
  list(): NoteView[] {
    return this.#notes.list().map((n) => viewNote(this.#env, n));
  }

  remove(id: string): boolean {
    return this.#notes.remove(id);
  }

  /** Of `notes`, those pinned to code that `spans` show (a note whose symbol is gone: when its file is shown). */
  static shownIn(notes: readonly NoteView[], spans: readonly Span[]): NoteView[] {
    return notes.filter((n) =>
      spans.some((s) => (n.location ? s.path === n.location.path && s.start <= n.location.endLine && s.end >= n.location.startLine : s.path === n.target.path)),
    );
  }
}
