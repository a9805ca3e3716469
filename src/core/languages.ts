import type { CodeLanguage, Language, OutlineLanguage } from "./types.js";

/** Source languages parsed with tree-sitter, by file extension (lower case, with the dot). */
const PARSED: Readonly<Record<string, CodeLanguage>> = {
  ".py": "python",
  ".pyi": "python",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".java": "java",
  ".go": "go",
  ".rs": "rust",
  ".c": "c",
  // A header is C until the walk finds the repository's sources are mostly C++ (see headerLanguage).
  ".h": "c",
  ".cc": "cpp",
  ".cpp": "cpp",
  ".cxx": "cpp",
  ".c++": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".hxx": "cpp",
  ".h++": "cpp",
  ".ipp": "cpp",
  ".tpp": "cpp",
  ".inl": "cpp",
  ".cs": "csharp",
  ".rb": "ruby",
  ".rake": "ruby",
  ".gemspec": "ruby",
  ".ru": "ruby",
  ".sh": "bash",
  ".bash": "bash",
  ".php": "php",
  ".kt": "kotlin",
  ".kts": "kotlin",
  ".scala": "scala",
  ".sc": "scala",
  ".swift": "swift",
};

/** Documents, styles, schemas and config read by an outline scanner, by file extension. */
const OUTLINED: Readonly<Record<string, OutlineLanguage>> = {
  ".md": "markdown",
  ".mdx": "markdown",
  ".markdown": "markdown",
  ".html": "html",
  ".htm": "html",
  ".css": "css",
  ".scss": "css",
  ".less": "css",
  ".sql": "sql",
  ".yaml": "yaml",
  ".yml": "yaml",
  ".json": "json",
  ".toml": "toml",
};
const OUTLINE_LANGUAGES: ReadonlySet<Language> = new Set(Object.values(OUTLINED));

/** Whether a language is read by an outline scanner rather than a tree-sitter grammar. */
export function isOutlineLanguage(language: Language): language is OutlineLanguage {
  return OUTLINE_LANGUAGES.has(language);
}

/** Extension-less files in a parsed language, by exact base name. */
const PARSED_NAMES: Readonly<Record<string, CodeLanguage>> = {
  Rakefile: "ruby",
  Gemfile: "ruby",
  Guardfile: "ruby",
  Vagrantfile: "ruby",
};

/**
 * Text files that are indexed lexically but not parsed: docs, config and code in languages
 * without a grammar here. Anything else (images, data dumps, archives) is skipped as `unsupported`.
 */
const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  ".rst", ".txt", ".adoc",
  ".ini", ".cfg", ".conf", ".properties", ".xml", ".gradle",
  ".vue", ".svelte",
  ".zsh", ".fish", ".ps1", ".bat",
  ".m", ".mm", ".fs", ".pl", ".pm", ".lua", ".r", ".jl", ".dart",
  ".ex", ".exs", ".erl", ".hs", ".ml", ".mli", ".clj", ".elm", ".zig", ".nim", ".graphql",
  ".proto", ".thrift", ".tf", ".hcl", ".pyx", ".pxd", ".cmake", ".mk",
]);

/** Extension-less files worth indexing, by exact base name. */
const TEXT_NAMES: ReadonlySet<string> = new Set([
  "Makefile", "makefile", "GNUmakefile", "Dockerfile", "Jenkinsfile", "Procfile", "CMakeLists.txt",
  "README", "LICENSE", "CHANGELOG", "CHANGES", "AUTHORS", "CONTRIBUTING", "NOTICE",
]);

/**
 * Release notes, whatever their extension (`CHANGES.txt`, `NEWS`, `release-notes/VERSION-2.x`):
 * a fix in many projects adds a line to them, so an agent must be able to find them.
 */
const RELEASE_NOTES_NAME = /^(?:change[-_]?log|changes|news|history|release[-_]?notes|releases|credits|contributors)(?:[-_.][\w.-]*)?$/i;
const RELEASE_NOTES_FOLDER = /(?:^|\/)(?:release[-_]?notes|change[-_]?logs?(?:\.d)?|changes)\/[^/]+$/i;

/** Whether a path holds release notes (a changelog, `NEWS`, `release-notes/…`). */
export function isReleaseNotesPath(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  // `history.py`, `changes/Foo.java`: code, whatever its name.
  if (dot > 0 && (PARSED[base.slice(dot).toLowerCase()] || CODE_TEXT.test(base))) return false;
  return RELEASE_NOTES_NAME.test(base) || RELEASE_NOTES_FOLDER.test(path);
}

/**
 * The folder release notes speak for: their own, less a folder of notes and a documentation
 * folder (`plugins/maven/changelog.d/123.md` → `plugins/maven`, `docs/changelog.md` → the root ""):
 * notes under `docs/` are the project's, not the docs'.
 */
export function releaseNotesHome(path: string): string {
  const folders = path.split("/").slice(0, -1);
  if (RELEASE_NOTES_FOLDER.test(path)) folders.pop();
  if (folders.length > 0 && /^docs?$/i.test(folders[folders.length - 1]!)) folders.pop();
  return folders.join("/");
}

/** Code without a grammar here, and images and archives: a release-notes name captures neither. */
const CODE_TEXT = /\.(?:m|mm|fs|pl|pm|lua|r|jl|dart|ex|exs|erl|hs|ml|clj|elm|zig|nim|zsh|sql|proto|png|jpe?g|gif|pdf|zip|gz)$/i;

/** Lockfiles are machine-written and huge; they never help an agent. */
const LOCKFILES: ReadonlySet<string> = new Set([
  "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "bun.lock",
  "Cargo.lock", "poetry.lock", "Pipfile.lock", "uv.lock", "pdm.lock", "composer.lock", "Gemfile.lock",
  "go.sum", "mix.lock", "pubspec.lock", "Podfile.lock", "flake.lock", "gradle.lockfile",
]);

/** What the walker decides from a path alone. */
export type PathClass =
  | { kind: "parsed"; language: Language }
  | { kind: "text" }
  | { kind: "lockfile" }
  | { kind: "generated" }
  | { kind: "unsupported" };

/** Classifies a repository-relative path (with `/`) by its name alone. */
export function classifyPath(relPath: string): PathClass {
  const slash = relPath.lastIndexOf("/");
  const base = slash < 0 ? relPath : relPath.slice(slash + 1);
  if (LOCKFILES.has(base) || base.endsWith(".lock")) return { kind: "lockfile" };
  const dot = base.lastIndexOf(".");
  const ext = dot <= 0 ? "" : base.slice(dot).toLowerCase();
  if (/\.(min|bundle)\.(js|mjs|cjs|css)$/i.test(base) || base.endsWith(".map")) return { kind: "generated" };
  // Own keys only: a file named `constructor` or `toString` is no language.
  const language = own(PARSED, ext) ?? own(PARSED_NAMES, base) ?? own(OUTLINED, ext);
  if (language) return { kind: "parsed", language };
  if (TEXT_EXTENSIONS.has(ext) || TEXT_NAMES.has(base)) return { kind: "text" };
  if (isReleaseNotesPath(relPath)) return { kind: "text" };
  return { kind: "unsupported" };
}

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** C++ sources, headers apart: what decides how a repository's `.h` files are parsed. */
const CPP_SOURCE = /\.(?:cc|cpp|cxx|c\+\+)$/i;
const C_SOURCE = /\.c$/i;

/**
 * The language of a repository's `.h` files: C++ where its C++ sources outnumber its C sources
 * (a C++ header read as C loses its classes and namespaces; C read as C++ mostly parses, but not
 * C that names a variable `new` or `class`).
 */
export function headerLanguage(paths: Iterable<string>): "c" | "cpp" {
  let c = 0;
  let cpp = 0;
  for (const path of paths) {
    if (CPP_SOURCE.test(path)) cpp++;
    else if (C_SOURCE.test(path)) c++;
  }
  return cpp > c ? "cpp" : "c";
}

/**
 * Languages whose files declare the namespace their definitions live in (C# and PHP namespaces,
 * Kotlin and Scala packages, written `A.B` or `A\B`) and import names of namespaces rather than
 * files. Extraction qualifies definitions by them; resolution finds imports through them.
 */
export const DECLARED_NAMESPACES: ReadonlySet<Language> = new Set(["csharp", "kotlin", "php", "scala"]);

/** Whether a path is a `.h` header, whose language depends on the repository (see headerLanguage). */
export function isAmbiguousHeader(path: string): boolean {
  return /\.h$/i.test(path);
}

/**
 * Whether a path is a vendored copy of another project: a `vendor/`, `_vendor/`, `vendored/`,
 * `third_party/`, `extern/` or `node_modules/` folder, or a Python package's own `packages/`
 * folder (`requests/packages/urllib3/`; a `packages/` folder at the root is a monorepo's own).
 */
export function isVendoredPath(path: string): boolean {
  const lower = path.toLowerCase();
  return /(?:^|\/)(?:_?vendor|vendored|third[_-]?party|extern|externals|node_modules)\//.test(lower) || /[^/]\/packages\/.+\.pyi?$/.test(lower);
}

/** The parsed language of a path by its extension, or null (a `.h` header: "c", see headerLanguage). */
export function languageOf(relPath: string): Language | null {
  const kind = classifyPath(relPath);
  return kind.kind === "parsed" ? kind.language : null;
}

/**
 * Whether a path holds tests (test folders, a .NET `Foo.Tests/` project, `test_*.py`, `*_test.go`,
 * `*.spec.ts`, `*_spec.rb`, `FooTests.cs`, `FooTests.swift`, conftest).
 */
export function isTestPath(path: string): boolean {
  const lower = path.toLowerCase();
  if (/(?:^|\/)(?:tests?|testing|__tests__|spec|specs|test_utils|testutils)\//.test(lower)) return true;
  if (/\.(?:unit)?tests?\//.test(lower)) return true;
  const base = lower.slice(lower.lastIndexOf("/") + 1);
  if (/^(?:test_.*|.*_(?:tests?|spec)\.\w+|.*\.(?:test|spec)\.\w+|conftest\.py)$/.test(base)) return true;
  // `FooTest.java`, `FooTests.swift`: the capital tells a test class from `Latest.java`.
  return /Tests?\.(?:java|cs|kt|scala|swift)$/.test(path);
}
