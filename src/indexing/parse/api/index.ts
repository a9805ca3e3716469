import type { ApiFacts, ImportInfo, Language } from "../../../core/types.js";
import type { TSNode, TSQuery } from "../grammars.js";
import { go, MENTIONS_GO } from "./go.js";
import { java, MENTIONS_JAVA } from "./java.js";
import { javascript, MENTIONS_JS } from "./javascript.js";
import { MENTIONS_PY, python } from "./python.js";
import { MENTIONS_RUST, rust } from "./rust.js";
import { emptyFacts, isEmpty } from "./tree.js";

/**
 * What a file says about HTTP (see {@link ApiFacts}), read from its tree with one query per
 * language (queries.ts `API_QUERIES`); each language's module lists the shapes it reads. Only
 * what is written is read: resolving names across files and matching calls to routes happen later,
 * over the whole index (graph/api-map.ts).
 */

/** Whether a file may say anything about HTTP: the query runs only where it can find something. */
const MENTIONS: Partial<Record<Language, RegExp>> = { javascript: MENTIONS_JS, typescript: MENTIONS_JS, tsx: MENTIONS_JS, python: MENTIONS_PY, java: MENTIONS_JAVA, go: MENTIONS_GO, rust: MENTIONS_RUST };

export function mentionsHttp(language: Language, source: string): boolean {
  return MENTIONS[language]?.test(source) ?? false;
}

/** The file's HTTP facts, or undefined when it has none. */
export function extractApiFacts(language: Language, query: TSQuery, root: TSNode, imports: readonly ImportInfo[], lineOf: (offset: number) => number): ApiFacts | undefined {
  const facts = emptyFacts();
  const matches = query.matches(root);
  switch (language) {
    case "python":
      python(facts, matches, imports, lineOf);
      break;
    case "java":
      java(facts, matches, lineOf);
      break;
    case "go":
      go(facts, matches, lineOf);
      break;
    case "rust":
      rust(facts, matches, lineOf);
      break;
    default:
      javascript(facts, matches, imports, lineOf);
  }
  return isEmpty(facts) ? undefined : facts;
}
