import { createRequire } from "node:module";
import type { Piscina } from "piscina";
import type { KeepAlive } from "../core/embedding-settings.js";
import { UNTRIMMED_HEAP, type NativeHeap } from "./native-heap.js";
import { REAL_TIMERS, Resident, type Timers } from "./resident.js";
import { workerFile } from "./worker-file.js";

/**
 * A pool of `threads` workers running `workers/<name>.js`. piscina is loaded on first use: a run
 * with nothing to parse never loads it. It is required rather than imported, as every package
 * loaded lazily is: the CLI's bundle runs from V8's code cache (`cli/code-cache.ts`), where a
 * dynamic `import()` has no loader.
 *
 * A parse pool starts one thread and adds the others as tasks wait (a run keeps `2 × threads`
 * batches in flight, so a large one has them all at once): an edit of one file starts one thread
 * (loading tree-sitter and its grammars takes a thread 60 ms of CPU, and a second one beside it
 * took a core from the run). Threads past the first end after `idleTimeout` without a task.
 */
export async function createPool(name: "parse" | "git-log" | "embed", threads: number): Promise<Piscina> {
  const { Piscina } = createRequire(import.meta.url)("piscina") as typeof import("piscina");
  return new Piscina({
    filename: workerFile(name),
    minThreads: name === "parse" ? 1 : threads,
    maxThreads: threads,
    idleTimeout: 1000,
    // Workers must return to the event loop between tasks so that tree-sitter's N-API
    // finalizers run (see parse/native-memory.ts); the Atomics wait loop never does.
    atomics: "disabled",
    ...(name === "embed" ? {} : { resourceLimits: WORKER_LIMITS[name] }),
  });
}

/**
 * The V8 heaps of the parse and git-log workers. Their young generations are capped: by default
 * each worker's grows to 48 MB (16 MB semi-spaces) under short-lived objects (a parse's extracted
 * chunks, the log's lines). With the caps, on sympy (`node --trace-gc`), a parse worker's committed
 * heap is about 30 MB and the git-log worker's 61 MB instead of 84 MB (137 scavenges instead of 45),
 * when it meets the main thread's graph stage. Cold sympy `--jobs 2`, runs in turn: peak RSS 404 →
 * 372 MiB, wall ratio 1.03 (7 runs); parse workers alone at 6, 8 or 12 MB did as well within the
 * noise, at 3 MB worse (399 MiB: more survivors promoted). A file that makes a parse blow up ends
 * its thread (ERR_WORKER_OUT_OF_MEMORY), not the process: the indexer skips it (parser-crashed); a
 * parse worker's live data is tens of MB.
 */
export const WORKER_LIMITS = {
  parse: { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: 8 },
  "git-log": { maxYoungGenerationSizeMb: 8 },
} as const;

/** How long an idle parse pool stays up by default: a server's next refresh reuses its warm threads. */
const PARSE_KEEP_ALIVE_MS = 30_000;
/**
 * How often the C memory that parse threads freed is handed back to the kernel while they parse.
 * Measured on sympy (`--jobs 2`, cold, 5 runs each in turn): peak RSS 533 → 457 MiB, wall ratio
 * 0.995; every second took 77 MiB off for 4% more wall time, every 3 s 50 MiB.
 */
const TRIM_EVERY_MS = 2000;

/**
 * The parse pools of one process, shared by every repository it indexes: index runs of ten
 * repositories use one set of parse threads (with their loaded grammars), kept for `keepAlive`
 * after the last run and then let go. Pools are keyed by size (one size in practice: `--jobs`).
 *
 * tree-sitter's trees are C memory that glibc keeps in each thread's arena once freed, even after
 * the thread ends: while any pool is in use, and when one is let go, `heap` is trimmed.
 */
export class ParsePools {
  readonly #pools = new Map<number, Resident<Piscina>>();
  #inUse = 0;
  #trimTimer: unknown = null;

  constructor(
    private readonly keepAlive: KeepAlive = PARSE_KEEP_ALIVE_MS,
    /** This process's C heap: trimmed while the pools parse, and by index runs as they let go of a stage. */
    readonly heap: NativeHeap = UNTRIMMED_HEAP,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  /**
   * Runs `work` on a pool of `threads` parse workers. The pool is never destroyed while a run uses
   * it: piscina terminates busy threads on destroy, and a thread torn down inside tree-sitter
   * aborts the whole process.
   */
  use<T>(threads: number, work: (pool: Piscina) => Promise<T>): Promise<T> {
    return this.#pool(threads).use(async (p) => {
      if (this.#inUse++ === 0) this.#trimLater();
      try {
        return await work(p);
      } finally {
        if (--this.#inUse === 0 && this.#trimTimer !== null) {
          this.timers.clearTimeout(this.#trimTimer);
          this.#trimTimer = null;
        }
      }
    });
  }

  /** Destroys every pool (call it when no run is in flight). */
  async close(): Promise<void> {
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  /**
   * The pool of that size, made on first use. Made here, not in `use`: closures made in `use` would
   * share its scope, and the pool kept for later runs would keep the first run's `work` and all it
   * holds (an index run's lexical builder: 30 MB on sympy, for the life of a server).
   */
  #pool(threads: number): Resident<Piscina> {
    let pool = this.#pools.get(threads);
    if (!pool) {
      const release = async (p: Piscina): Promise<void> => {
        await p.destroy();
        this.heap.trim(); // what the ended threads' arenas still hold
      };
      pool = new Resident(() => createPool("parse", threads), release, this.keepAlive);
      this.#pools.set(threads, pool);
    }
    return pool;
  }

  /**
   * Trims every {@link TRIM_EVERY_MS} while a pool is in use. Whether the heap can trim is asked at
   * the first tick: asking loads koffi (7 ms), which a run that parses for less (an edit) never
   * pays; where it cannot, the timer stops there.
   */
  #trimLater(): void {
    this.#trimTimer = this.timers.setTimeout(() => {
      if (!this.heap.trims) {
        this.#trimTimer = null;
        return;
      }
      this.heap.trim();
      this.#trimLater();
    }, TRIM_EVERY_MS);
  }
}
