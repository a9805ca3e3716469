import { asBinary, type Database, type RootDatabase } from "lmdb";
import type { ApiRecord, ParsedFile, SymbolInfo, TermStats } from "../../core/types.js";
import { COMPRESSED, type WriteScope } from "./scope.js";

/** What the parse stage stores per file (msgpack-encoded by the worker). */
export interface ParseOutput {
  parsed: Uint8Array | null;
  symbols: Uint8Array | null;
  api: Uint8Array | null;
  terms: Uint8Array;
}

/**
 * The parse stage's tables: each file's parse, its symbols alone, and its term statistics. Written
 * only with the file records (`IndexStore.writeBatch`), which journal the file for every later part.
 */
export class ParseTables {
  readonly #parsed: Database<ParsedFile, string>;
  /** The symbols of `parsed` alone, for queries: decoding them is ten times cheaper than the whole parse. */
  readonly #symbols: Database<SymbolInfo[], string>;
  readonly #terms: Database<TermStats, string>;
  /** The HTTP facts of the files that have any, with their imports: the API map reads these files alone. */
  readonly #api: Database<ApiRecord, string>;

  constructor(env: RootDatabase, private readonly scope: WriteScope) {
    this.#parsed = env.openDB("parsed", COMPRESSED);
    this.#symbols = env.openDB("symbols", COMPRESSED);
    this.#terms = env.openDB("terms", {});
    this.#api = env.openDB("api", {});
  }

  parsed(path: string): ParsedFile | undefined {
    return this.#parsed.get(path);
  }

  symbols(path: string): SymbolInfo[] | undefined {
    return this.#symbols.get(path);
  }

  terms(path: string): TermStats | undefined {
    return this.#terms.get(path);
  }

  api(path: string): ApiRecord | undefined {
    return this.#api.get(path);
  }

  /** The files that have HTTP facts. */
  apiPaths(): string[] {
    return [...this.#api.getKeys()];
  }

  /** Stores a file's parse as the worker encoded it (read back through the tables' normal decoding). */
  put(path: string, output: ParseOutput): void {
    this.scope.check();
    putOrRemove(this.#parsed, path, output.parsed);
    putOrRemove(this.#symbols, path, output.symbols);
    putOrRemove(this.#api, path, output.api);
    void this.#terms.put(path, asBinary(output.terms) as unknown as TermStats);
  }

  remove(path: string): void {
    this.scope.check();
    void this.#parsed.remove(path);
    void this.#symbols.remove(path);
    void this.#terms.remove(path);
    void this.#api.remove(path);
  }
}

function putOrRemove<V>(table: Database<V, string>, path: string, bytes: Uint8Array | null): void {
  if (bytes) void table.put(path, asBinary(bytes) as unknown as V);
  else void table.remove(path);
}
