import { createRequire } from "node:module";

/**
 * The C heap of this process (glibc's malloc), as far as a long-lived indexer needs it.
 *
 * tree-sitter's trees live in C memory. When a parse thread frees them, glibc keeps the freed pages
 * in that thread's malloc arena for later use, and an arena outlives its thread: on sympy the two
 * parse threads left about 170 MB of freed memory resident after the parse. `malloc_trim(0)` hands
 * the free pages of every arena back to the kernel (25–30 ms for ~470 MB); Node offers no way to
 * call it, so it is called through koffi's FFI (see native-notes/koffi.md).
 */
export interface NativeHeap {
  /** Whether `trim` can return memory here (Linux with glibc, koffi installed). */
  readonly trims: boolean;
  /** Returns the freed pages of every thread's malloc arena to the kernel; a no-op where it cannot. */
  trim(): void;
}

/** A heap that never trims: what a ParsePools made without a heap gets. */
export const UNTRIMMED_HEAP: NativeHeap = { trims: false, trim: () => undefined };

/**
 * This process's heap. On first use it loads koffi and glibc's `malloc_trim` on Linux with glibc
 * (about 8 ms, never paid by a command that parses nothing); anywhere else (macOS, Windows, musl,
 * koffi absent: it is an optional dependency) it never trims.
 */
export function processHeap(): NativeHeap {
  let mallocTrim: ((pad: number) => number) | null | undefined;
  const loaded = (): ((pad: number) => number) | null => (mallocTrim === undefined ? (mallocTrim = loadMallocTrim()) : mallocTrim);
  return {
    get trims() {
      return loaded() !== null;
    },
    trim: () => {
      try {
        loaded()?.(0);
      } catch {
        // a trim that fails frees nothing and harms nothing: never an uncaught error in a timer
      }
    },
  };
}

function loadMallocTrim(): ((pad: number) => number) | null {
  if (process.platform !== "linux") return null;
  try {
    // musl has no libc.so.6 (and no malloc_trim): the load throws there.
    const koffi = createRequire(import.meta.url)("koffi") as typeof import("koffi");
    return koffi.load("libc.so.6").func("int malloc_trim(size_t pad)") as (pad: number) => number;
  } catch {
    return null;
  }
}
