import { createRequire } from "node:module";
import type { Language } from "../../core/types.js";
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
  parse(input: string, oldTree?: TSTree | null, options?: { bufferSize?: number }): TSTree;
}
interface TSModule {
  new (): TSParser;
  Query: new (language: unknown, source: string) => TSQuery;
}

/** A loaded grammar: a parser set to it and its compiled extraction query. */
export interface Grammar {
  parse(source: string): TSNode;
  readonly query: TSQuery;
  /** The query of routes and HTTP requests (api/), for the languages that have one. */
  readonly apiQuery: TSQuery | null;
}

function loadLanguage(language: Language): unknown {
  switch (language) {
    case "python":
      return require("tree-sitter-python");
    case "javascript":
      return require("tree-sitter-javascript");
    case "typescript":
      return (require("tree-sitter-typescript") as { typescript: unknown }).typescript;
    case "tsx":
      return (require("tree-sitter-typescript") as { tsx: unknown }).tsx;
    case "java":
      return require("tree-sitter-java");
    case "go":
      return require("tree-sitter-go");
    case "rust":
      return require("tree-sitter-rust");
  }
}

/**
 * Grammars loaded on first use and kept: one set per worker thread (tree-sitter parsers are not
 * thread-safe, so threads never share one).
 */
export class Grammars {
  readonly #loaded = new Map<Language, Grammar>();
  #ts: TSModule | undefined;

  get(language: Language): Grammar {
    let grammar = this.#loaded.get(language);
    if (!grammar) {
      this.#ts ??= require("tree-sitter") as TSModule;
      const lang = loadLanguage(language);
      const parser = new this.#ts();
      parser.setLanguage(lang);
      const query = new this.#ts.Query(lang, QUERIES[language]);
      const api = API_QUERIES[language];
      const apiQuery = api ? new this.#ts.Query(lang, api) : null;
      grammar = {
        // node-tree-sitter <= 0.21 threw "Invalid argument" on strings over its 32 KiB default
        // buffer; 0.25 reads strings in chunks of bufferSize, where 64 KiB measured fastest.
        parse: (source) => parser.parse(source, null, { bufferSize: 64 * 1024 }).rootNode,
        query,
        apiQuery,
      };
      this.#loaded.set(language, grammar);
    }
    return grammar;
  }
}
