import { ContextSmithError } from "../core/errors.js";
import { RepoFiles } from "../core/repo-file.js";
import { SymbolFinder, symbolQuery } from "../graph/lookup.js";
import type { Span } from "../query/types.js";
import { indexedPath, repoRelative } from "../store/repo-paths.js";
import type { IndexStore } from "../store/store.js";
import { NoteStore } from "./note-store.js";
import { targetHash, viewNote, type NoteEnvironment } from "./staleness.js";
import type { NoteTarget, NoteView } from "./types.js";

/** The notes of one repository, checked against its index and its files as they are now. */
export class Notebook {
  readonly #notes: NoteStore;
  readonly #env: NoteEnvironment;
  readonly #root: string;
  readonly #store: IndexStore | null;
  readonly #finder: SymbolFinder | null;

  constructor(indexDir: string, root: string, store: IndexStore | null) {
    this.#notes = new NoteStore(indexDir);
    this.#root = root;
    this.#store = store;
    const finder = (this.#finder = store ? new SymbolFinder(store) : null);
    const files = new RepoFiles(root);
    this.#env = {
      fileHash: (path) => store?.file(path)?.hash ?? null,
      symbols: (path) => store?.parse.symbols(path) ?? [],
      definers: (name) => finder?.definers(name) ?? [],
      // The file as indexed (its size and hash): the stored symbol lines are its lines.
      lines: (path) => {
        const record = store?.file(path);
        return record ? (files.readIndexed(record)?.split("\n") ?? null) : null;
      },
    };
  }

  /**
   * Pins a note to a file (a path the index has, possibly partial) or a symbol (a name that means
   * exactly one definition), recording the hash of its code now.
   * @throws ContextSmithError `INVALID_ARGUMENT` (empty, both or neither target, an ambiguous name), `NOT_FOUND`, `PATH_NOT_FOUND`
   */
  pin(text: string, target: { path?: string; symbol?: string }): NoteView {
    if (text.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", "The note is empty.");
    if ((target.path === undefined) === (target.symbol === undefined)) {
      throw new ContextSmithError("INVALID_ARGUMENT", "Pin the note to a file or to a symbol (one of them).");
    }
    if (target.path !== undefined) return this.#add(text.trim(), { kind: "file", path: indexedPath(this.#store, this.#root, target.path) });
    const name = symbolQuery(target.symbol!);
    const found = this.#finder?.find(name) ?? [];
    if (found.length === 0) {
      const suggestions = this.#finder?.suggest(name) ?? [];
      const message = `No definition of ${name} in the index.`;
      throw new ContextSmithError("NOT_FOUND", suggestions.length > 0 ? `${message} Did you mean: ${suggestions.join(", ")}?` : message, { suggestions });
    }
    if (found.length > 1) {
      const candidates = found.map((f) => `${f.location.path}:${f.location.qualifiedName}`);
      throw new ContextSmithError("INVALID_ARGUMENT", `${name} is ambiguous: say which one (path:name):\n${candidates.map((c) => `  ${c}`).join("\n")}`, { candidates });
    }
    const { location } = found[0]!;
    return this.#add(text.trim(), { kind: "symbol", path: location.path, name: location.name, qualifiedName: location.qualifiedName });
  }

  /**
   * Notes with their status, all or those of a file or a symbol. A symbol filter matches notes on
   * any definition the name means, and notes whose symbol is gone but had that name.
   */
  filter(filter: { path?: string; symbol?: string } = {}): NoteView[] {
    const path = filter.path === undefined ? undefined : repoRelative(this.#root, filter.path);
    const symbol = filter.symbol === undefined ? undefined : symbolQuery(filter.symbol);
    const wanted = new Set(symbol === undefined ? [] : (this.#finder?.find(symbol) ?? []).map((f) => `${f.location.path}:${f.location.qualifiedName}`));
    return this.list().filter((n) => {
      if (path !== undefined && n.target.path !== path && n.location?.path !== path) return false;
      if (symbol === undefined) return true;
      if (n.target.kind !== "symbol") return false;
      return n.target.qualifiedName === symbol || n.target.name === symbol || wanted.has(`${n.location?.path ?? n.target.path}:${n.target.qualifiedName}`);
    });
  }

  #add(text: string, target: NoteTarget): NoteView {
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
