import { isTestPath } from "../core/languages.js";
import type { IndexStore } from "../store/store.js";
import { SymbolFinder, type FoundSymbol } from "./lookup.js";
import { decodeCalls, forEachCall, RESOLUTIONS } from "./codec.js";
import type { Resolution, StoredFileGraph, SymbolRef } from "../store/types.js";
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
 * The call and import graph of one index, loaded from the stored per-file graphs with the reverse
 * edges built in memory. An engine keeps one per index generation, so repeated queries (an agent
 * asking for impact after impact) cost only the traversal.
 */
export class CodeGraph {
  readonly finder: SymbolFinder;
  readonly #store: IndexStore;
  readonly #graphs = new Map<string, StoredFileGraph>();
  /** Target file id -> symbol -> rows of `[source file id, caller, line, how, candidates]`. */
  readonly #incoming = new Map<number, Map<number, number[]>>();
  readonly #paths: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #importedBy = new Map<string, Set<string>>();
  #loaded = false;

  constructor(store: IndexStore) {
    this.#store = store;
    this.finder = new SymbolFinder(store, { cache: true });
  }

  // The stored graphs and the reverse edges, loaded on the first query that needs them (a symbol
  // lookup does not). Reverse edges are flat integer rows per target symbol: sympy has 340k.
  #load(): void {
    if (this.#loaded) return;
    this.#loaded = true;
    for (const [path, value] of this.#store.graph.files()) {
      this.#graphs.set(path, value);
      const source = this.#pathId(path);
      const fileIds = value.files.map((f) => this.#pathId(f));
      forEachCall(value, (row, ints) => {
        for (let k = 0; k < row.count; k++) {
          const target = fileIds[ints[row.at + 2 * k]!]!;
          const symbol = ints[row.at + 2 * k + 1]!;
          let bySymbol = this.#incoming.get(target);
          if (!bySymbol) this.#incoming.set(target, (bySymbol = new Map()));
          const list = bySymbol.get(symbol);
          if (list) list.push(source, row.caller, row.line, row.how, row.count);
          else bySymbol.set(symbol, [source, row.caller, row.line, row.how, row.count]);
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
    const id = this.#ids.get(path);
    const rows = id === undefined ? undefined : this.#incoming.get(id)?.get(index);
    const out: Incoming[] = [];
    if (!rows) return out;
    for (let i = 0; i < rows.length; i += 5) {
      out.push({ path: this.#paths[rows[i]!]!, caller: rows[i + 1]!, line: rows[i + 2]!, how: RESOLUTIONS[rows[i + 3]!]!, candidates: rows[i + 4]! });
    }
    return out;
  }

  /** One hop up: the call sites of what `name` means. */
  callers(name: string): CallsResult {
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
      const stored = this.#graphs.get(path);
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
    this.#load();
    const maxDepth = Math.min(Math.max(1, Math.floor(depth)), MAX_DEPTH);
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
    const graph = this.#graphs.get(path);
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
    let n = 0;
    for (const g of this.#graphs.values()) n += g.callCount;
    return n;
  }

  #calls(query: string, found: FoundSymbol[], calls: CallHit[]): CallsResult {
    calls.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || (a.symbol?.qualifiedName ?? "").localeCompare(b.symbol?.qualifiedName ?? ""));
    return { query, targets: found.map((f) => f.location), calls, suggestions: found.length === 0 ? this.finder.suggest(query) : [] };
  }
}

function refKey([path, index]: SymbolRef): string {
  return `${path}#${index}`;
}
