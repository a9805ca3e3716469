import { ContextSmithError } from "../../core/errors.js";
import type { StoreMeta } from "../types.js";

/**
 * What a group of tables may do to its store besides writing its own tables: know that a write
 * transaction is open, and update the meta entry in it.
 *
 * Every write method of a group calls {@link WriteScope.check} first. Together with the groups'
 * shape (the method that writes a part's data also settles that part's journal entries) this makes
 * "data and its journal entries are committed together" the store's rule, not each stage's habit.
 */
export interface WriteScope {
  /** Throws unless called inside `IndexStore.transaction`. */
  check(): void;
  updateMeta(change: (meta: StoreMeta) => void): void;
}

/** The scope of a store whose transactions are counted by `writing()`. */
export function writeScope(writing: () => boolean, updateMeta: (change: (meta: StoreMeta) => void) => void): WriteScope {
  return {
    check() {
      if (!writing()) throw new ContextSmithError("INTERNAL", "The index was written outside a transaction.");
    },
    updateMeta,
  };
}

/**
 * The option of a table whose values are mostly kilobytes (a file's parse, symbols, term counts,
 * graph; the lexical and history snapshots): LZ4, applied by lmdb-js to each value over 1,000
 * bytes on its write thread, never on the caller's. On sympy these tables shrink from 64 MB to
 * 37 MB, and a full read of the parse, symbols and graph tables (28 MB of values) takes 15 ms more.
 * A table must always be opened with the same setting (the schema version guards old indexes);
 * tables of small values stay plain, where compression saves nothing.
 */
export const COMPRESSED = { compression: true } as const;
