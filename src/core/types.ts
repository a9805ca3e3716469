/**
 * Data contracts shared by the write path (indexing), the store and the read path.
 * Everything here is plain data: it crosses worker threads by structured clone and is
 * stored in LMDB with msgpack.
 */

/** Languages parsed with a tree-sitter grammar. */
export type CodeLanguage = "python" | "javascript" | "typescript" | "tsx" | "java" | "go" | "rust" | "c" | "cpp" | "csharp" | "ruby" | "bash" | "php" | "kotlin" | "scala" | "swift";

/**
 * Documents, styles, schemas and config, read by an outline scanner (indexing/parse/outline/):
 * Markdown sections, HTML elements with an id (and their inline scripts and styles), CSS rules and
 * custom properties, SQL `CREATE` statements and the tables queries name, config keys.
 */
export type OutlineLanguage = "markdown" | "html" | "css" | "sql" | "yaml" | "json" | "toml";

/** What a file is parsed as. */
export type Language = CodeLanguage | OutlineLanguage;

/**
 * What a definition is. Code: `function` … `macro`. Outlines: a Markdown `section` (by heading), an
 * HTML `element` with an id (or an inline script or style), a CSS `rule` (a selector or an at-rule
 * block), a `variable` (a CSS custom property, a Sass or Less variable), an SQL `table` or `view`
 * (its functions and procedures are `function`s), a config file's `key`.
 */
export const SYMBOL_KINDS = [
  "function", "method", "class", "interface", "enum", "struct", "trait", "type", "impl", "module", "macro",
  "section", "element", "rule", "variable", "table", "view", "key",
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/**
 * Kinds that name a place in a document, page, style sheet or config file (a heading, an element's
 * id, a selector, a key): found by `symbol` and searched as text, but no name that code calls, so
 * they stay out of the exact-name index the ranking reads (a `build` key in forty package.json
 * files must not make the `build` function too common to point anywhere).
 */
export const PLACE_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>(["section", "element", "rule", "key"]);

/** A definition found in a file. Lines are 1-based and inclusive. */
export interface SymbolInfo {
  name: string;
  /** Name qualified by its enclosing definitions, e.g. `Checkout.apply_coupon`. */
  qualifiedName: string;
  kind: SymbolKind;
  /** The declaration up to its body, whitespace collapsed, at most 240 characters. */
  signature: string;
  /** First sentence of the docstring or leading comment, or "". */
  doc: string;
  startLine: number;
  endLine: number;
  /** Index of the enclosing symbol in the same file's symbol list, or -1. */
  parent: number;
  /** Base classes and implemented interfaces, bare names as written (`Base`, `Mixin`); classes and interfaces only, absent when none. */
  bases?: string[];
  /** A declaration without a body (a C/C++ prototype, a method declared in its class); absent on definitions. */
  decl?: true;
}

/** A call (or constructor use) inside a file. */
export interface CallSite {
  /** Index of the innermost enclosing symbol, or -1 at module level. */
  caller: number;
  /** The called name: `foo` for `foo()`, `bar` for `x.bar()`, `Widget` for `new Widget()`. */
  callee: string;
  /** The receiver text for member calls (`self`, `this`, `os.path`), or "". */
  receiver: string;
  line: number;
}

/** One import statement (or `require`, or re-export). */
export interface ImportInfo {
  /** Module path as written: `os.path`, `./util`, `github.com/x/y`, `crate::a::b`, `java.util`, `fmt/core.h`. */
  module: string;
  /** Imported names with their local alias; empty for `import x` (the module itself). */
  names: Array<{ name: string; alias: string }>;
  /** Local alias for the module itself (`import numpy as np`, `import * as fs`), or "". */
  alias: string;
  /**
   * `include` is C/C++'s `#include "local.h"` and `system` its `#include <vector>`: both bring every
   * name of the file (and of what it includes) into scope, so their `names` are `*`. `using` is
   * C++'s `using namespace a::b;` and C#'s `using A.B;` (`module` the namespace; C#'s `using static
   * A.B.C;` names the type's members `*`, `using X = A.B;` has the alias `X`). `require` is also
   * Ruby's `require` (`module` as written; `require_relative` starts it with `./`) and a shell
   * script's `source` / `.` (the path as written, a leading `$(dirname "$0")/` read as `./`).
   */
  kind: "import" | "require" | "reexport" | "include" | "system" | "using";
  line: number;
}

/**
 * A piece of a URL as written: literal text, a name it is built from (a constant, a parameter of
 * the enclosing function), or an expression it cannot read (`{ dyn: true }`).
 */
export type UrlPart = string | { ref: string } | { dyn: true };

/**
 * What a file says about HTTP: the routes it declares, the routers it mounts under prefixes, the
 * requests it makes, and what resolving those across files needs (its string constants, the
 * functions that forward a URL parameter to an HTTP client, what it exports). Only files that
 * mention HTTP have them.
 */
export interface ApiFacts {
  /** Local names of the routers and apps it makes (`router = Router()`, `app = FastAPI()`; `default` for an exported expression). */
  routers: string[];
  routes: Array<{
    router: string;
    method: string;
    path: UrlPart[];
    line: number;
    handler: string;
    /** Declared on a controller class (NestJS): the application's global prefix comes first. */
    controller?: true;
    /** The first and last lines of a handler written in place (`router.get('/x', (req, res) => …)`). */
    inline?: [number, number];
  }>;
  /** `parent.use(prefix, child)`, `include_router(child, prefix=)`, `register_blueprint`; `child` as written (`tags`, `users.router`). */
  mounts: Array<{ parent: string; prefix: UrlPart[] | null; child: string; line: number; /** Flask's `url_prefix`: it replaces the child's own prefix. */ replaces?: true }>;
  /** Requests: the client as written (`fetch`, `axios`, `requests`, a wrapper's name), the method (null: not known), the URL. */
  calls: Array<{
    client: string;
    method: string | null;
    url: UrlPart[];
    line: number;
    /** Not a client's call: a request only if `client` names a wrapper or a client instance (here or imported). */
    viaWrapper?: true;
  }>;
  /** Functions that forward their parameter `param` into a request: `requests.get = url => agent.get(ROOT + url)`. */
  wrappers: Array<{ name: string; method: string | null; url: UrlPart[]; param: string }>;
  /** HTTP clients it makes (`api = axios.create({ baseURL })`), with the base URL each request starts with. */
  instances: Record<string, UrlPart[]>;
  /** A router's own prefix (`APIRouter(prefix=)`, `Blueprint(url_prefix=)`). */
  prefixes: Record<string, UrlPart[]>;
  /** Module-level string constants that may be URLs or pieces of one. */
  strings: Record<string, string>;
  /** Exported name → local name (`default` → `router`; a Go function → the router it returns). */
  exports: Record<string, string>;
  /** A prefix before every controller's routes (NestJS `app.setGlobalPrefix('api')`). */
  global?: UrlPart[];
}

/** What the API map reads of a file that has HTTP facts: the facts and the imports that resolve their names. Stored apart from the parse. */
export interface ApiRecord {
  facts: ApiFacts;
  imports: ImportInfo[];
}

/** What parsing one file yields. */
export interface ParsedFile {
  symbols: SymbolInfo[];
  calls: CallSite[];
  imports: ImportInfo[];
  /** Its routes and HTTP requests, when it has any (stored as an {@link ApiRecord}, not with the parse). */
  api?: ApiFacts;
  /** tree-sitter found syntax errors (the file is still indexed; tree-sitter recovers). */
  hasErrors: boolean;
}

/** Why a file was not indexed. */
export type SkipReason =
  | "too-large"
  | "binary"
  | "undecodable"
  | "generated"
  | "lockfile"
  | "unsupported"
  | "symlink"
  | "unreadable"
  /** Its parse crashed the worker thread (or exhausted its memory), alone. */
  | "parser-crashed";

/** Term statistics of one file for BM25: term -> frequency, plus the total token count. */
export interface TermStats {
  tf: Record<string, number>;
  length: number;
}

/** The stored record of one file. A file is indexed only once this record is committed. */
export interface FileRecord {
  path: string;
  /** Numeric id used by the lexical index; stable while the path exists. */
  id: number;
  size: number;
  mtimeMs: number;
  /** SHA-256 of the content, hex. */
  hash: string;
  /** Parsed language, or null for text files indexed lexically only. */
  language: Language | null;
  lines: number;
  /** Set when the file was read but not indexed (binary, undecodable, generated). */
  skipped: SkipReason | null;
}

/** One commit of the ancestry of HEAD. */
export interface CommitInfo {
  hash: string;
  /** Seconds since the epoch (committer date). */
  time: number;
  message: string;
  /** Number of files it touched. */
  fileCount: number;
}

/** Git history of one file. */
export interface FileHistory {
  /** Abbreviated (12-digit) hashes of the most recent commits touching the file, newest first (capped); keys of the commits table. */
  commits: string[];
  /** Number of commits that touched the file (not capped). */
  churn: number;
  /** Time of the last commit that touched it (seconds). */
  lastChange: number;
  /** Files changed together with this one: path -> number of shared commits (top entries only; empty for a file with a single commit). */
  cochange: Record<string, number>;
}

/** Counts and timings of one `index` run. */
export interface IndexStats {
  root: string;
  files: {
    seen: number;
    parsed: number;
    /** Unchanged files: stat equal, or content hash equal (stat refreshed). */
    unchanged: number;
    /** Of the unchanged files, those whose stat changed but content did not. */
    touched: number;
    removed: number;
    skipped: Partial<Record<SkipReason, number>>;
  };
  /** Totals in the index after the run. */
  totals: { files: number; symbols: number; calls: number; imports: number; commits: number; bytes: number };
  /** Commits read in this run. */
  commitsRead: number;
  /** Files whose calls and imports were resolved again in this run (changed files and their dependents). */
  graphResolved: number;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  indexBytes: number;
  rebuilt: boolean;
  semantic: SemanticStats;
  warnings: string[];
}

/** The semantic vectors after an index run. */
export interface SemanticStats {
  /** Whether queries can use the semantic signal now. */
  on: boolean;
  /** The model whose vectors the index holds (or that was tried), e.g. `local BAAI/bge-small-en-v1.5`. */
  model: string | null;
  vectors: number;
  /** Summaries embedded by the model in this run, and taken from the vector cache. */
  embedded: number;
  cached: number;
  /** Why semantic search is off (no model, --no-semantic, a download that failed), or null. */
  reason: string | null;
}

/** Progress events of long work, for bars, logs and `--progress json`. */
export type ProgressEvent =
  | { stage: "lock"; message: string }
  | { stage: "walk"; files: number }
  | { stage: "plan"; toRead: number; unchanged: number; removed: number }
  | { stage: "parse"; done: number; total: number; batch: number }
  | { stage: "git"; commits: number }
  /** Waiting for the git history, which runs beside the graph stage, to finish. */
  | { stage: "history"; message: string }
  | { stage: "lexical"; message: string }
  | { stage: "graph"; message: string }
  /** Files of the graph journal resolved so far. */
  | { stage: "resolve"; done: number; total: number }
  /** Files whose vectors are brought up to date, of those journalled; summaries embedded so far. */
  | { stage: "embed"; done: number; total: number; embedded: number }
  | { stage: "download"; model: string; file: string; received: number; total: number | null }
  | { stage: "done"; ms: number };

/** How a caller follows and controls an index run (inline or in the index thread). */
export interface RunOptions {
  onProgress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
  /** Wait for a concurrent writer (default true) or fail with `LOCKED`. */
  wait?: boolean;
  /** Stop waiting for a concurrent writer after this long, with `LOCKED` (default: as long as it lives). */
  waitTimeoutMs?: number;
}
