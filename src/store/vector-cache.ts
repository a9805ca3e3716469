import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";

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
      return new VectorCache(open<Buffer, string>({ path: join(cacheDir, "vectors.lmdb"), noSubdir: true, encoding: "binary", compression: false }));
    } catch {
      return null;
    }
  }

  /** The cached vector of `hash` in the space `key`, or undefined. */
  get(key: string, hash: string): Float32Array | undefined {
    const bytes = this.#db.get(`${key}\0${hash}`);
    return bytes ? bufferToVector(bytes) : undefined;
  }

  /** Caches vectors of the space `key` by summary hash, in one transaction. */
  async putAll(key: string, entries: Iterable<[string, Float32Array]>): Promise<void> {
    await this.#db.transaction(() => {
      for (const [hash, vector] of entries) void this.#db.put(`${key}\0${hash}`, vectorToBuffer(vector));
    });
  }

  async close(): Promise<void> {
    await this.#db.close();
  }
}

/** A vector's bytes as stored (a copy: LMDB keeps the Buffer). */
export function vectorToBuffer(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

/** A stored vector's values (copied out of LMDB's memory). */
export function bufferToVector(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
