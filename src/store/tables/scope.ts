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
 * The option of a table whose values are mostly kilobytes and compress well (a file's parse, its
 * symbols, its graph; the lexical and history snapshots; term counts, mostly distinct words, shrink
 * by a sixth only and stay plain): LZ4, applied by lmdb-js to each value over 1,000
 * bytes as it is written (inside our transactions, so on the writing thread). Measured on sympy:
 * the index shrinks from 69 to 45 MB (no history), a cold index costs 2% more CPU and wall time,
 * its peak RSS is 25 MB lower (fewer pages mapped), and a full read of the parse, symbols and graph
 * tables (28 MB of values) takes 15 ms more. A table must always be opened with the same setting
 * (the schema version guards old indexes); tables of small values stay plain, where compression
 * saves nothing. No dictionary: lmdb-js's default one is a file of its package, which an upgrade
 * could change under an existing index (and it gains 1% on values this large). lmdb-js replaces
 * this object's `compression` with its compressor on the first open, which every table of the
 * thread then shares, as its own default compressor is shared: it compresses inside a write
 * transaction (one at a time) and decompresses on synchronous reads only.
 */
export const COMPRESSED = { compression: { dictionary: Buffer.alloc(0) } } as const;
