import type { Database, RootDatabase } from "lmdb";
import type { FileVectors } from "../types.js";
import type { WriteScope } from "./scope.js";

/** How one file's vectors change. */
export interface FileVectorsWrite {
  /** The file's vectors now; null when it has none left. */
  vectors: FileVectors | null;
  /** New labels with the summary name each stands for. */
  added: ReadonlyArray<[label: number, name: string]>;
  /** Labels the file no longer has. */
  removed: readonly number[];
}

/**
 * The semantic part (written by the embed stage, `src/indexing/embed-stage.ts`): each file's
 * summaries' hashes, vector labels and vectors; what each label is; and the journal of files whose
 * vectors are out of date (filled with every change, emptied by the embed stage).
 */
export class VectorTables {
  readonly #files: Database<FileVectors, string>;
  /** Vector label -> `[path, qualified name]` of its summary: what a kNN hit is. */
  readonly #labels: Database<[string, string], number>;
  readonly #journal: Database<true, string>;

  constructor(env: RootDatabase, private readonly scope: WriteScope) {
    this.#files = env.openDB("embedded", {});
    this.#labels = env.openDB("labels", { keyEncoding: "uint32" });
    this.#journal = env.openDB("embed-journal", {});
  }

  /** Files whose vectors are out of date, in path order. */
  pending(): string[] {
    return [...this.#journal.getKeys()];
  }

  pendingCount(): number {
    return this.#journal.getKeysCount();
  }

  of(path: string): FileVectors | undefined {
    return this.#files.get(path);
  }

  *all(): IterableIterator<[path: string, vectors: FileVectors]> {
    for (const { key, value } of this.#files.getRange()) yield [key, value];
  }

  /** The file and summary a label stands for. */
  label(label: number): [path: string, name: string] | undefined {
    return this.#labels.get(label);
  }

  /** Files that have vectors. */
  fileCount(): number {
    return this.#files.getCount();
  }

  labelCount(): number {
    return this.#labels.getCount();
  }

  *labels(): IterableIterator<[label: number, at: [path: string, name: string]]> {
    for (const { key, value } of this.#labels.getRange()) yield [key, value];
  }

  /** Journals a file whose content changed (or that was removed). */
  markChanged(path: string): void {
    this.scope.check();
    void this.#journal.put(path, true);
  }

  /** Drops every vector and journals every file in `paths` (a new vector space). */
  reset(paths: Iterable<string>): void {
    this.scope.check();
    for (const label of this.#labels.getKeys()) void this.#labels.remove(label);
    for (const path of this.#files.getKeys()) void this.#files.remove(path);
    for (const path of paths) void this.#journal.put(path, true);
  }

  /** Writes a file's vectors (or settles its entry when they are as they were: `null`) and removes it from the journal. */
  putFile(path: string, write: FileVectorsWrite | null): void {
    this.scope.check();
    void this.#journal.remove(path);
    if (!write) return;
    for (const [label, name] of write.added) void this.#labels.put(label, [path, name]);
    for (const label of write.removed) void this.#labels.remove(label);
    if (write.vectors) void this.#files.put(path, write.vectors);
    else void this.#files.remove(path);
  }
}
