import type { CallEdge, FileGraph, Resolution, StoredFileGraph } from "../store/types.js";

/** Resolutions by their stored code. */
export const RESOLUTIONS: readonly Resolution[] = ["local", "import", "receiver", "hierarchy", "unique", "ambiguous"];
const CODE = new Map(RESOLUTIONS.map((r, i) => [r, i]));

/**
 * Packs a file's calls into one buffer of 32-bit integers — per call `caller, line, callee, how,
 * n`, then `n` pairs `(file, symbol)` — with the callee names and target files as tables. Decoding
 * a quarter of a million call objects took most of a second on sympy; these rows decode in
 * milliseconds, and readers walk them without making objects.
 */
export function encodeGraph(graph: FileGraph): StoredFileGraph {
  const files = new Map<string, number>();
  const callees = new Map<string, number>();
  const index = (table: Map<string, number>, key: string): number => {
    let i = table.get(key);
    if (i === undefined) table.set(key, (i = table.size));
    return i;
  };
  const ints: number[] = [];
  for (const call of graph.calls) {
    ints.push(call.caller, call.line, index(callees, call.callee), CODE.get(call.how)!, call.targets.length);
    for (const [path, symbol] of call.targets) ints.push(index(files, path), symbol);
  }
  return {
    files: [...files.keys()],
    callees: [...callees.keys()],
    callCount: graph.calls.length,
    calls: Buffer.from(Int32Array.from(ints).buffer),
    imports: graph.imports,
    unresolved: graph.unresolved,
    deps: graph.deps,
    refs: graph.refs,
  };
}

/** One call as the rows hold it; `targets` are `[fileIndex, symbol]` pairs at `ints[at..]`. */
export interface CallRow {
  caller: number;
  line: number;
  callee: number;
  how: number;
  count: number;
  /** Offset of the first target pair in the row array. */
  at: number;
}

/** The rows of a stored graph as 32-bit integers (copied when the buffer is not aligned). */
export function callInts(stored: StoredFileGraph): Int32Array {
  const bytes = stored.calls;
  if (bytes.byteOffset % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Int32Array(Uint8Array.prototype.slice.call(bytes).buffer);
}

/** Walks the calls of a stored graph without decoding them into objects. */
export function forEachCall(stored: StoredFileGraph, visit: (row: CallRow, ints: Int32Array) => void): void {
  const ints = callInts(stored);
  const row: CallRow = { caller: 0, line: 0, callee: 0, how: 0, count: 0, at: 0 };
  for (let i = 0; i < ints.length; ) {
    row.caller = ints[i]!;
    row.line = ints[i + 1]!;
    row.callee = ints[i + 2]!;
    row.how = ints[i + 3]!;
    row.count = ints[i + 4]!;
    row.at = i + 5;
    visit(row, ints);
    i = row.at + 2 * row.count;
  }
}

/** The calls of a stored graph as objects (for the few that a query shows). */
export function decodeCalls(stored: StoredFileGraph): CallEdge[] {
  const calls: CallEdge[] = [];
  forEachCall(stored, (row, ints) => {
    const targets: Array<readonly [string, number]> = [];
    for (let k = 0; k < row.count; k++) targets.push([stored.files[ints[row.at + 2 * k]!]!, ints[row.at + 2 * k + 1]!]);
    calls.push({ caller: row.caller, line: row.line, callee: stored.callees[row.callee]!, how: RESOLUTIONS[row.how]!, targets });
  });
  return calls;
}
