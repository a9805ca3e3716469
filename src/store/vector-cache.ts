import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";
import { mapSizeOption } from "./map-size.js";
import { decodeVector, encodeVectors } from "./vector-codec.js";

/**
 * Vectors by model key and summary hash, shared by every index on the machine
 * (`<cacheDir>/vectors.lmdb`): a symbol whose summary did not change is never embedded twice,
 * across re-indexes, branch switches, fresh checkouts and copies of the same repository. LMDB
 * lets several processes use it at once.
 */
export class VectorCache {
  readonly #db: RootDatabase<Buffer, string>;

  private constructor(db: RootDatabase<Buffer, string>) {
    this.#db = db;
  }

  /** Opens (creates) the cache in `cacheDir`; null when it cannot be (a read-only home): embedding then works uncached. */
  static open(cacheDir: string): VectorCache | null {
    try {
      mkdirSync(cacheDir, { recursive: true });
      return new VectorCache(open<Buffer, string>({ path: join(cacheDir, "vectors.lmdb"), noSubdir: true, encoding: "binary", compression: false, ...mapSizeOption() }));
    } catch {
      return null;
    }
  }

  /** The cached vector of `hash` in the space `key`, or undefined. */
  get(key: string, hash: string): Float32Array | undefined {
    const bytes = this.#db.get(`${key}\0${hash}`);
    return bytes ? decodeVector(bytes, 0, bytes.byteLength / 2) : undefined;
  }

  /** Caches vectors of the space `key` by summary hash, in one transaction. */
  async putAll(key: string, entries: Iterable<[string, Float32Array]>): Promise<void> {
    await this.#db.transaction(() => {
      for (const [hash, vector] of entries) void this.#db.put(`${key}\0${hash}`, encodeVectors([vector]));
    });
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}
