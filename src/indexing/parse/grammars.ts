import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { CodeLanguage } from "../../core/types.js";
import { API_QUERIES, QUERIES } from "./queries.js";

// tree-sitter and its grammars are CommonJS native addons.
const require = createRequire(import.meta.url);

/** The subset of node-tree-sitter's API we use (its bundled typings are CommonJS-only). */
export interface TSPoint {
  row: number;
  column: number;
}
export interface TSNode {
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: TSPoint;
  readonly endPosition: TSPoint;
  readonly id: number;
  readonly parent: TSNode | null;
  readonly namedChildren: TSNode[];
  readonly previousNamedSibling: TSNode | null;
  readonly nextNamedSibling: TSNode | null;
  readonly firstNamedChild: TSNode | null;
  readonly hasError: boolean;
  childForFieldName(name: string): TSNode | null;
  childrenForFieldName(name: string): TSNode[];
}
export interface TSCapture {
  name: string;
  node: TSNode;
}
export interface TSQuery {
  matches(node: TSNode): Array<{ pattern: number; captures: TSCapture[] }>;
}
interface TSTree {
  readonly rootNode: TSNode;
}
interface TSParser {
  setLanguage(language: unknown): void;
  /** Undefined when `progressCallback` halted it. */
  parse(input: string, oldTree?: TSTree | null, options?: { bufferSize?: number; progressCallback?: () => boolean }): TSTree | undefined;
  reset(): void;
}
interface TSModule {
  new (): TSParser;
  Query: new (language: unknown, source: string) => TSQuery;
  Tree: { prototype: TSTreeInternals };
}
/** node-tree-sitter's private node cache (see {@link withoutNodeCache}). */
interface TSTreeInternals {
  _cacheNode?: (node: unknown) => void;
  _cacheNodes?: (nodes: unknown[]) => void;
}

/**
 * Turns off node-tree-sitter's per-tree node cache. Every node object that crosses into JavaScript
 * (each capture of the extraction query, each parent or child read) is registered in it with a
 * weak reference and an N-API finalizer, only so that reading the same node twice returns the same
 * object. Extraction never compares nodes by identity, and the finalizers cost: measured on 800
 * sympy files in one thread, extraction took 5.2 s with the cache and 4.8 s without, and the
 * thread's RSS 190 MB against 157 MB. Without entries the binding marshals every node afresh, as
 * it does for any node not in the cache, so answers are the same, as long as nodes are compared by
 * `id`, never as objects.
 */
function withoutNodeCache(ts: TSModule): TSModule {
  const tree = ts.Tree.prototype;
  if (typeof tree._cacheNode === "function") tree._cacheNode = () => undefined;
  if (typeof tree._cacheNodes === "function") tree._cacheNodes = () => undefined;
  return ts;
}

/** A loaded grammar: a parser set to it and its compiled extraction query. */
export interface Grammar {
  parse(source: string): TSNode;
  readonly query: TSQuery;
  /** The query of routes and HTTP requests (api/), for the languages that have one. */
  readonly apiQuery: TSQuery | null;
}

/**
 * The npm package of each language's grammar, and the export that holds it when it is not the
 * module itself. `binding`: the package is an ES module with a top-level await, which `require`
 * cannot load: its native binding is loaded directly, the way its own entry does.
 */
const PACKAGES: Readonly<Record<CodeLanguage, { module: string; member?: string; binding?: true }>> = {
  python: { module: "tree-sitter-python" },
  javascript: { module: "tree-sitter-javascript" },
  typescript: { module: "tree-sitter-typescript", member: "typescript" },
  tsx: { module: "tree-sitter-typescript", member: "tsx" },
  java: { module: "tree-sitter-java" },
  go: { module: "tree-sitter-go" },
  rust: { module: "tree-sitter-rust" },
  c: { module: "tree-sitter-c" },
  cpp: { module: "tree-sitter-cpp" },
  csharp: { module: "tree-sitter-c-sharp", binding: true },
  ruby: { module: "tree-sitter-ruby" },
  bash: { module: "tree-sitter-bash" },
  php: { module: "tree-sitter-php", member: "php" },
  kotlin: { module: "@tree-sitter-grammars/tree-sitter-kotlin" },
  scala: { module: "tree-sitter-scala" },
  // An optional dependency: a machine without it indexes Swift as text (native-notes/tree-sitter.md).
  swift: { module: "tree-sitter-swift" },
};

/**
 * The default loader: `require`, or for a package whose entry is an ES module with a top-level
 * await (`tree-sitter-c-sharp`), its prebuilt or compiled binding through `node-gyp-build`, as
 * that entry does (its grammar is the binding itself; the entry only adds query files).
 */
function loadGrammar(module: string): unknown {
  const entry = Object.values(PACKAGES).find((p) => p.module === module);
  if (!entry?.binding) return require(module);
  const build = require("node-gyp-build") as (dir: string) => unknown;
  return build(dirname(require.resolve(`${module}/package.json`)));
}

/** Loads a grammar's native module (injected in tests, to stand for a machine where one cannot load). */
export type GrammarLoader = (module: string) => unknown;

export interface GrammarOptions {
  load?: GrammarLoader;
  /**
   * How long a parse of a text this long may take, in ms. Error recovery is worse than linear on
   * some inputs (a 196 KB C++ `.inl` file of array data took 13 s): past the budget the parse is
   * abandoned and the file is indexed as text.
   */
  budgetMs?: (chars: number) => number;
}

/**
 * 10 s, and 10 ms more per KB: 20 s for a 1 MiB file, which parses in about 0.3 s. Wall-clock
 * time, so a loaded machine slows a parse down: the budget is a net under runaway parses, far
 * above what any ordinary file takes (an abandoned file stays text until it changes).
 */
const PARSE_BUDGET_MS = (chars: number): number => 10_000 + chars / 100;

/** What a parse worker holds: a grammar per language, or why it cannot have one. */
export interface GrammarSource {
  /** The grammar of `language`, or null when it cannot load on this machine (see {@link failure}). */
  get(language: CodeLanguage): Grammar | null;
  /** Why `language`'s grammar could not load, once `get` returned null. */
  failure(language: CodeLanguage): string | undefined;
}

/**
 * Grammars loaded on first use and kept: one set per worker thread (tree-sitter parsers are not
 * thread-safe, so threads never share one). A grammar that cannot load (no prebuild for this
 * platform, a failed compile) is remembered as such: its language is indexed as text.
 */
export class Grammars implements GrammarSource {
  readonly #loaded = new Map<CodeLanguage, Grammar | string>();
  readonly #load: GrammarLoader;
  readonly #budgetMs: (chars: number) => number;
  #ts: TSModule | undefined;

  constructor(options: GrammarOptions = {}) {
    this.#load = options.load ?? loadGrammar;
    this.#budgetMs = options.budgetMs ?? PARSE_BUDGET_MS;
  }

  get(language: CodeLanguage): Grammar | null {
    let grammar = this.#loaded.get(language);
    if (grammar === undefined) {
      try {
        grammar = this.#open(language);
      } catch (error) {
        grammar = `${PACKAGES[language].module}: ${(error as Error).message.split("\n")[0]}`;
      }
      this.#loaded.set(language, grammar);
    }
    return typeof grammar === "string" ? null : grammar;
  }

  failure(language: CodeLanguage): string | undefined {
    const grammar = this.#loaded.get(language);
    return typeof grammar === "string" ? grammar : undefined;
  }

  #open(language: CodeLanguage): Grammar {
    this.#ts ??= withoutNodeCache(require("tree-sitter-core") as TSModule);
    const { module, member } = PACKAGES[language];
    const loaded = this.#load(module) as Record<string, unknown>;
    const lang = member ? loaded[member] : loaded;
    const parser = new this.#ts();
    parser.setLanguage(lang);
    const query = new this.#ts.Query(lang, QUERIES[language]);
    const api = API_QUERIES[language];
    const apiQuery = api ? new this.#ts.Query(lang, api) : null;
    const parse = (source: string): TSNode => {
      const budget = this.#budgetMs(source.length);
      const deadline = performance.now() + budget;
      // node-tree-sitter <= 0.21 threw "Invalid argument" on strings over its 32 KiB default
      // buffer; 0.25 reads strings in chunks of bufferSize, where 64 KiB measured fastest. The
      // progress callback is called every few thousand parse steps: its cost did not measure.
      const tree = parser.parse(source, null, { bufferSize: 64 * 1024, progressCallback: () => performance.now() > deadline });
      if (tree) return tree.rootNode;
      // A halted parser resumes the halted parse on its next call unless it is reset.
      parser.reset();
      throw new Error(`tree-sitter gave up after ${(budget / 1000).toFixed(1)} s, its error recovery too slow on this text`);
    };
    return { parse, query, apiQuery };
  }
}
