import { isTestPath } from "../core/languages.js";
import type { IndexStore } from "../store/store.js";
import { ContextSmithError } from "../core/errors.js";
import { SymbolFinder, symbolQuery, type FoundSymbol } from "./lookup.js";
import { decodeCalls, forEachCall, RESOLUTIONS } from "./codec.js";
import type { Resolution, SymbolRef } from "../store/types.js";
import type { CallHit, CallsResult, ImpactNode, ImpactResult, RelatedResult } from "./types.js";

/** A call seen from its target: who calls, from where. */
interface Incoming {
  path: string;
  caller: number;
  line: number;
  how: Resolution;
  /** Number of candidates of the call (1 unless ambiguous). */
  candidates: number;
}

const DEFAULT_DEPTH = 5;
const MAX_DEPTH = 50;

/**
 * The call and import graph of one index: the stored per-file graphs, read as queries need them,
 * and the reverse edges built in memory. An engine keeps one per index generation, so repeated queries (an agent
 * asking for impact after impact) cost only the traversal.
 */
export class CodeGraph {
  readonly finder: SymbolFinder;
  readonly #store: IndexStore;
  /**
   * The reverse call edges, grouped by target file: rows of {@link INCOMING_STRIDE} integers
   * `[symbol, source file id, caller, line, how + 8 * candidates]`; target file `id`'s rows are
   * rows `#incomingAt[id]` to `#incomingAt[id + 1]`. Two flat arrays instead of a map per target
   * and symbol: sympy's 340k edges take 7 MB instead of 40.
   */
  #incoming = new Int32Array(0);
  #incomingAt = new Int32Array(1);
  readonly #paths: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #importedBy = new Map<string, Set<string>>();
  #resolvedCalls = 0;
  #loaded = false;

  constructor(store: IndexStore) {
    this.#store = store;
    this.finder = new SymbolFinder(store, { cache: true });
  }

  // The reverse edges, built on the first query that needs them (a symbol lookup does not); the
  // forward graph of a file is read from the store when a query asks for it.
  #load(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    // One pass over the stored graphs collects the edges with their target first; a counting sort
    // by target file then lays them out in place.
    const edges = new EdgeBuffer();
    for (const [path, value] of this.#store.graph.files()) {
      this.#resolvedCalls += value.callCount;
      const source = this.#pathId(path);
      const fileIds = value.files.map((f) => this.#pathId(f));
      forEachCall(value, (row, ints) => {
        for (let k = 0; k < row.count; k++) {
          edges.push(fileIds[ints[row.at + 2 * k]!]!, ints[row.at + 2 * k + 1]!, source, row.caller, row.line, row.how + 8 * row.count);
        }
      });
      for (const imp of value.imports) {
        for (const target of imp.targets) {
          let set = this.#importedBy.get(target);
          if (!set) this.#importedBy.set(target, (set = new Set()));
          set.add(path);
        }
      }
    }
    const all = edges.view();
    const count = all.length / EDGE_STRIDE;
    const at = new Int32Array(this.#paths.length + 1);
    for (let e = 0; e < count; e++) at[all[e * EDGE_STRIDE]! + 1]!++;
    for (let f = 0; f < this.#paths.length; f++) at[f + 1]! += at[f]!;
    const next = at.slice(0, this.#paths.length);
    const rows = new Int32Array(count * INCOMING_STRIDE);
    for (let e = 0; e < count; e++) {
      const o = (next[all[e * EDGE_STRIDE]!]!++) * INCOMING_STRIDE;
      rows.set(all.subarray(e * EDGE_STRIDE + 1, (e + 1) * EDGE_STRIDE), o);
    }
    this.#incoming = rows;
    this.#incomingAt = at;
  }

  #pathId(path: string): number {
    let id = this.#ids.get(path);
    if (id === undefined) {
      id = this.#paths.length;
      this.#ids.set(path, id);
      this.#paths.push(path);
    }
    return id;
  }

  /** The calls into a definition. */
  #incomingOf([path, index]: SymbolRef): Incoming[] {
    const out: Incoming[] = [];
    const id = this.#ids.get(path);
    if (id === undefined) return out;
    const rows = this.#incoming;
    for (let r = this.#incomingAt[id]! * INCOMING_STRIDE, end = this.#incomingAt[id + 1]! * INCOMING_STRIDE; r < end; r += INCOMING_STRIDE) {
      if (rows[r] !== index) continue;
      const packed = rows[r + 4]!;
      out.push({ path: this.#paths[rows[r + 1]!]!, caller: rows[r + 2]!, line: rows[r + 3]!, how: RESOLUTIONS[packed & 7]!, candidates: packed >>> 3 });
    }
    return out;
  }

  /** One hop up: the call sites of what `name` means. */
  callers(name: string): CallsResult {
    name = symbolQuery(name);
    this.#load();
    const found = this.finder.find(name);
    const calls: CallHit[] = [];
    // A call site that may mean several of the found definitions is listed once.
    const listed = new Set<string>();
    for (const { ref } of found) {
      for (const inc of this.#incomingOf(ref)) {
        const site = `${inc.path}#${inc.caller}#${inc.line}`;
        if (listed.has(site)) continue;
        listed.add(site);
        calls.push({
          symbol: inc.caller >= 0 ? this.finder.locate([inc.path, inc.caller]) : null,
          path: inc.path,
          line: inc.line,
          how: inc.how,
          ...(inc.candidates > 1 ? { candidates: inc.candidates } : {}),
        });
      }
    }
    return this.#calls(name, found, calls);
  }

  /** One hop down: what the code of `name` (and the functions nested in it) calls. */
  callees(name: string): CallsResult {
    name = symbolQuery(name);
    this.#load();
    const found = this.finder.find(name);
    const calls: CallHit[] = [];
    for (const { ref } of found) {
      const [path, index] = ref;
      const symbols = this.finder.symbols(path);
      const inside = (caller: number): boolean => {
        for (let s = caller; s >= 0; s = symbols[s]?.parent ?? -1) if (s === index) return true;
        return false;
      };
      const stored = this.#store.graph.file(path);
      for (const call of stored ? decodeCalls(stored) : []) {
        if (!inside(call.caller)) continue;
        for (const target of call.targets) {
          calls.push({
            symbol: this.finder.locate(target),
            path,
            line: call.line,
            how: call.how,
            ...(call.targets.length > 1 ? { candidates: call.targets.length } : {}),
          });
        }
      }
    }
    return this.#calls(name, found, calls);
  }

  /**
   * Everything that calls `name`, transitively, as a tree by depth. A caller is expanded once, at
   * its shallowest depth; meeting it again (a cycle, a second path) marks it `seen`.
   */
  impact(name: string, depth = DEFAULT_DEPTH): ImpactResult {
    name = symbolQuery(name);
    if (!Number.isInteger(depth) || depth < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The depth must be a positive whole number, not ${depth}.`);
    this.#load();
    const maxDepth = Math.min(depth, MAX_DEPTH);
    const found = this.finder.find(name);
    const seen = new Set(found.map((f) => refKey(f.ref)));
    const byDepth: number[] = [];
    const files = new Set<string>();
    const tests = new Set<string>();
    let truncated = false;
    // Breadth first, so that every symbol sits at its shallowest depth.
    let frontier: Array<{ ref: SymbolRef; children: ImpactNode[] }> = found.map((f) => ({ ref: f.ref, children: [] }));
    const tree = frontier.map((f) => f.children);
    for (let d = 1; frontier.length > 0; d++) {
      const next: typeof frontier = [];
      let count = 0;
      for (const node of frontier) {
        // One tree node per calling symbol, with all its call lines.
        const byCaller = new Map<string, { inc: Incoming; lines: number[] }>();
        for (const inc of this.#incomingOf(node.ref)) {
          const key = refKey([inc.path, inc.caller]);
          const entry = byCaller.get(key);
          if (entry) entry.lines.push(inc.line);
          else byCaller.set(key, { inc, lines: [inc.line] });
        }
        if (d > maxDepth) {
          if (byCaller.size > 0) truncated = true;
          continue;
        }
        for (const [key, { inc, lines }] of byCaller) {
          const isTest = isTestPath(inc.path);
          const child: ImpactNode = {
            symbol: inc.caller >= 0 ? this.finder.locate([inc.path, inc.caller]) : null,
            path: inc.path,
            lines: lines.sort((a, b) => a - b),
            how: inc.how,
            depth: d,
            isTest,
            children: [],
          };
          node.children.push(child);
          if (seen.has(key)) {
            child.seen = true;
            continue;
          }
          seen.add(key);
          count++;
          (isTest ? tests : files).add(inc.path);
          // Module-level code runs on import: nothing calls it.
          if (inc.caller >= 0) next.push({ ref: [inc.path, inc.caller], children: child.children });
        }
      }
      if (d <= maxDepth && count > 0) byDepth.push(count);
      frontier = next;
    }
    const symbols = byDepth.reduce((a, b) => a + b, 0);
    const flat = tree.flat();
    const sortTree = (nodes: ImpactNode[]): void => {
      nodes.sort((a, b) => a.path.localeCompare(b.path) || a.lines[0]! - b.lines[0]!);
      for (const n of nodes) sortTree(n.children);
    };
    sortTree(flat);
    return {
      query: name,
      targets: found.map((f) => f.location),
      depth: maxDepth,
      tree: flat,
      byDepth,
      counts: { symbols, files: files.size + tests.size, tests: tests.size, production: files.size },
      files: [...files].sort(),
      tests: [...tests].sort(),
      truncated,
      suggestions: found.length === 0 ? this.finder.suggest(name) : [],
    };
  }

  /** A file's neighbours by imports, calls and shared commits. */
  related(path: string): RelatedResult {
    this.#load();
    const graph = this.#store.graph.file(path);
    const imports = new Set<string>();
    for (const imp of graph?.imports ?? []) for (const t of imp.targets) imports.add(t);
    // Call neighbours count resolved call sites; an ambiguous call's candidates are guesses.
    const calls = new Map<string, number>();
    if (graph) {
      forEachCall(graph, (row, ints) => {
        if (row.count > 1) return;
        for (let k = 0; k < row.count; k++) {
          const t = graph.files[ints[row.at + 2 * k]!]!;
          if (t !== path) calls.set(t, (calls.get(t) ?? 0) + 1);
        }
      });
    }
    const calledBy = new Map<string, number>();
    const symbols = this.finder.symbols(path);
    symbols.forEach((_, index) => {
      for (const inc of this.#incomingOf([path, index])) {
        if (inc.path !== path && inc.candidates === 1) calledBy.set(inc.path, (calledBy.get(inc.path) ?? 0) + 1);
      }
    });
    const bySites = (m: Map<string, number>): Array<{ path: string; sites: number }> =>
      [...m].map(([p, sites]) => ({ path: p, sites })).sort((a, b) => b.sites - a.sites || a.path.localeCompare(b.path));
    const cochange = Object.entries(this.#store.history.of(path)?.cochange ?? {})
      .map(([p, commits]) => ({ path: p, commits }))
      .sort((a, b) => b.commits - a.commits || a.path.localeCompare(b.path));
    return {
      path,
      imports: [...imports].sort(),
      importedBy: [...(this.#importedBy.get(path) ?? [])].sort(),
      cochange,
      calls: bySites(calls),
      calledBy: bySites(calledBy),
    };
  }

  /** Number of resolved call sites in the index. */
  resolvedCalls(): number {
    this.#load();
    return this.#resolvedCalls;
  }

  #calls(query: string, found: FoundSymbol[], calls: CallHit[]): CallsResult {
    calls.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || (a.symbol?.qualifiedName ?? "").localeCompare(b.symbol?.qualifiedName ?? ""));
    return { query, targets: found.map((f) => f.location), calls, suggestions: found.length === 0 ? this.finder.suggest(query) : [] };
  }
}

/** An edge while loading: `[target file id, symbol, source file id, caller, line, how + 8 * candidates]`. */
const EDGE_STRIDE = 6;
/** An edge once grouped by target file (the target left out). */
const INCOMING_STRIDE = 5;

/** The edges while loading, in an Int32Array that doubles as it fills. */
class EdgeBuffer {
  #data = new Int32Array(EDGE_STRIDE << 14);
  #length = 0;

  push(target: number, symbol: number, source: number, caller: number, line: number, how: number): void {
    if (this.#length + EDGE_STRIDE > this.#data.length) {
      const grown = new Int32Array(this.#data.length * 2);
      grown.set(this.#data);
      this.#data = grown;
    }
    const d = this.#data;
    const i = this.#length;
    d[i] = target;
    d[i + 1] = symbol;
    d[i + 2] = source;
    d[i + 3] = caller;
    d[i + 4] = line;
    d[i + 5] = how;
    this.#length += EDGE_STRIDE;
  }

  view(): Int32Array {
    return this.#data.subarray(0, this.#length);
  }
}

function refKey([path, index]: SymbolRef): string {
  return `${path}#${index}`;
}
