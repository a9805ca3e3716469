import type { Engine } from "../../src/engine.js";
import { IndexStore } from "../../src/store/store.js";

const readers = new WeakMap<Engine, { identity: string | null; store: IndexStore | null }>();

/**
 * A read handle on an engine's stored tables, for tests to look inside the index (the Engine keeps
 * its own reader to itself). Reopened when the data file was replaced.
 */
export function storeOf(engine: Engine): IndexStore | null {
  const identity = IndexStore.identity(engine.config.indexDir);
  let reader = readers.get(engine);
  if (!reader || reader.identity !== identity || reader.store === null) {
    reader = { identity, store: IndexStore.openForRead(engine.config.indexDir) };
    readers.set(engine, reader);
  }
  return reader.store;
}
