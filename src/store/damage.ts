/**
 * A stored value whose own layout is broken (on sound pages, decoding cleanly): what a reader
 * throws so that `isDamage` (store.ts) knows it, a query marks the index damaged, and the next
 * index run rebuilds it. A plain Error, not a ContextSmithError: those are the user's to see.
 */
export function damagedData(what: string): Error {
  return new Error(`${DAMAGED_DATA}: ${what}`);
}

/** The start of every {@link damagedData} message. */
export const DAMAGED_DATA = "Damaged index data";
