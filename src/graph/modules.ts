import { languageOf } from "../core/languages.js";
import type { ImportInfo, Language } from "../core/types.js";

const JS_EXTENSIONS = [".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"];
const PY_EXTENSIONS = [".py", ".pyi"];
/** First folders of the Go standard library's import paths. */
const GO_STD: ReadonlySet<string> = new Set([
  "archive", "compress", "container", "crypto", "database", "debug", "encoding", "go", "hash", "html", "image",
  "index", "internal", "io", "log", "math", "mime", "net", "os", "path", "regexp", "runtime", "sync", "testing",
  "text", "time", "unicode",
]);
/** File names that stand for their folder: a package, a JS folder module, a Rust module or crate root. */
const FOLDER_FILES = /^(?:__init__|index|mod|lib|main)$/;
/** The families whose folder files (see FOLDER_FILES) stand for their folder. */
const FOLDER_FAMILIES: ReadonlySet<string> = new Set(["python", "js", "rust"]);

/** The family whose files can import each other (JavaScript and TypeScript mix freely). */
export function languageFamily(language: Language | null): string {
  if (language === "typescript" || language === "tsx" || language === "javascript") return "js";
  // C++ includes C headers and calls C functions; a `.h` file is either.
  if (language === "cpp") return "c";
  return language ?? "";
}

/** The folder of a path ("" at the root). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.indexOf(".");
  return dot <= 0 ? base : base.slice(0, dot);
}

/**
 * The names under which a file can be imported: its stem, and its folder's name when it stands for
 * the folder. A resolution records the names of the modules it looked for (see {@link moduleKeys}),
 * so that adding or removing a file re-resolves exactly the files that may now import it.
 */
export function fileModuleKeys(path: string): string[] {
  const keys = new Set([`mod:${stemOf(path)}`, `mod:${stemOf(dirOf(path))}`]);
  // A Swift file is imported by its module's name, however deep in the module it sits: one of its
  // folders' names (see ModuleResolver.swiftModule), all of them keyed rather than worked out here.
  if (languageOf(path) === "swift") for (const folder of dirOf(path).split("/")) keys.add(`mod:${folder}`);
  keys.delete("mod:");
  return [...keys];
}

/** The module a Swift import names: `Kit` of `import Kit.Sub` and of `import struct Kit.Point`. */
export function swiftImportedModule(imp: ImportInfo): string {
  return imp.module.split(".")[0]!;
}

/** A Swift module: the folder its files are under, and the name `import` gives it. */
export interface SwiftModule {
  readonly root: string;
  readonly name: string;
}

/** SwiftPM's default target folders, beside a `Package.swift`. */
const SWIFTPM_FOLDERS: ReadonlySet<string> = new Set(["Sources", "Tests", "Plugins"]);

/** The package a bare JS specifier names (`@scope/name/x` -> `@scope/name`, `name/x` -> `name`), or null for a relative one. */
export function packageName(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("@/") || specifier.startsWith("~/")) return null;
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 ? `${parts[0]}/${parts[1]}` : null;
  return parts[0] || null;
}

/** Extensions that a file path written in an import ends with (not a module path's last segment: `os.path`). */
const FILE_EXTENSION = /\.(?:[cm]?[jt]sx?|sh|bash|rb|php|css|scss|sass|less|html?)$/i;

/** The key under which a resolution records that it looked for workspace packages (see graph-stage). */
export const PACKAGE_KEY = "pkg:";
/** The key under which a resolution records that it read the include folders of build files (see graph-stage). */
export const INCLUDE_KEY = "inc:";
/** The key under which a Swift file's resolution records that it read the modules of Package.swift files. */
export const SWIFT_TARGETS_KEY = "swiftpm:";

/** Whether an import is a C/C++ `#include`. */
export function isInclude(imp: ImportInfo): boolean {
  return imp.kind === "include" || imp.kind === "system";
}

/**
 * The module names an import statement looks for (last segment of the module and the imported
 * names), and `pkg:` for a bare JS specifier (which a workspace package.json may come to name).
 */
export function moduleKeys(imp: ImportInfo, language: Language): string[] {
  const keys = new Set<string>();
  if (languageFamily(language) === "js" && packageName(imp.module) !== null) keys.add(PACKAGE_KEY);
  if (isInclude(imp)) {
    // `fmt/core.h` is looked for by its file name (see fileModuleKeys), in include folders too.
    keys.add(INCLUDE_KEY);
    const stem = stemOf(imp.module);
    if (stem) keys.add(`mod:${stem}`);
    return [...keys];
  }
  // `./a.js`, `lib/x.sh`, `partials/vars` are looked for by their file's stem (`a`, `x`, `vars`,
  // and a Sass partial's `_vars`); `os.path` and `crate::a::b` by their last segment.
  const last = imp.module.replace(FILE_EXTENSION, "").split(/::|[./]/).filter((s) => s !== "").pop();
  if (last) keys.add(`mod:${last}`);
  if (last && languageFamily(language) === "css") keys.add(`mod:_${last}`);
  for (const { name } of imp.names) if (name !== "*" && name !== "default") keys.add(`mod:${name}`);
  if (language === "swift") keys.add(`mod:${swiftImportedModule(imp)}`);
  return [...keys];
}

/** What a repository's own files say about where its modules are. */
export interface RepoLayout {
  /** Workspace package name -> its folder ("" for the root), from the repository's package.json files. */
  packages?: ReadonlyMap<string, string>;
  /**
   * C/C++ include folders (repository-relative) that its build files name, in search order, each
   * for the files under its build file's folder (`scope`, "" for all).
   */
  includeDirs?: ReadonlyArray<{ scope: string; dirs: readonly string[] }>;
  /** Swift modules that a `Package.swift` gives a folder of their own (`path:`). */
  swiftTargets?: readonly SwiftModule[];
}

/**
 * Resolves import specifiers to repository files, per language, from the set of indexed paths:
 * relative specifiers exactly, absolute ones by the longest matching path tail (a repository rarely
 * says where its source roots are).
 */
/** A resolver's lookups over every source file (see ModuleResolver's `#lookups`). */
interface Lookups {
  /** Module paths (without extension, a folder file's name dropped) by family and last segment. */
  byStem: Map<string, Array<{ path: string; module: string }>>;
  /** Folder -> its source files, for Go packages and Java same-package classes. */
  byDir: Map<string, string[]>;
  /** Swift module name -> its files (see swiftModule). */
  swiftModules: Map<string, string[]>;
}

export class ModuleResolver {
  readonly #paths: Set<string>;
  /** The lookups by stem, folder and Swift module: made on first use (see {@link ModuleResolver.#lookups}). */
  #made: Lookups | undefined;
  readonly #swiftTargets: readonly SwiftModule[];
  readonly #swiftModuleOf = new Map<string, SwiftModule>();
  /** Resolutions by importing folder and specifier: a repository imports the same modules over and over. */
  readonly #memo = new Map<string, string[]>();
  /**
   * Folders by their last segment and by their last two (`a/b/src` under `src` and `b/src`), each
   * list in the order of {@link ModuleResolver.#byDir}, with every folder's place in it: built on
   * first use, so that a lookup by folder tail reads a few folders rather than all of them (a
   * 100,000-file monorepo has tens of thousands).
   */
  #dirTails: { lists: Map<string, string[]>; order: Map<string, number> } | null = null;
  /** {@link ModuleResolver.siblings} by family and folder. */
  readonly #siblings = new Map<string, readonly string[]>();

  /** Workspace package name -> its folder ("" for the root), from the repository's package.json files. */
  readonly #packages: ReadonlyMap<string, string>;
  /** C/C++ include folders the build files name, in the order they are searched, by the folder they serve. */
  readonly #includeDirs: ReadonlyArray<{ scope: string; dirs: readonly string[] }>;

  constructor(paths: Iterable<string>, layout: RepoLayout = {}) {
    this.#paths = new Set(paths);
    this.#packages = layout.packages ?? new Map();
    this.#includeDirs = layout.includeDirs ?? [];
    this.#swiftTargets = layout.swiftTargets ?? [];
  }

  /**
   * Every source file by module stem, by folder and by Swift module, made when a specifier first
   * needs one: a one-file edit of a JavaScript file whose imports are relative resolves from the
   * path set alone, and making them took 49 ms over babel's 27,000 paths.
   */
  get #lookups(): Lookups {
    if (this.#made) return this.#made;
    const made: Lookups = { byStem: new Map(), byDir: new Map(), swiftModules: new Map() };
    for (const path of this.#paths) {
      const language = languageOf(path);
      if (!language) continue;
      const dir = dirOf(path);
      const inDir = made.byDir.get(dir);
      if (inDir) inDir.push(path);
      else made.byDir.set(dir, [path]);
      const bare = path.replace(/(\.d)?\.[\w+]+$/, "");
      const folderFile = FOLDER_FILES.test(stemOf(path)) && FOLDER_FAMILIES.has(languageFamily(language));
      const module = folderFile ? dirOf(bare) : bare;
      const key = `${languageFamily(language)}:${module.slice(module.lastIndexOf("/") + 1)}`;
      const list = made.byStem.get(key);
      if (list) list.push({ path, module });
      else made.byStem.set(key, [{ path, module }]);
      if (language === "swift") {
        const { name } = this.swiftModule(path);
        const files = made.swiftModules.get(name);
        if (files) files.push(path);
        else made.swiftModules.set(name, [path]);
      }
    }
    for (const list of made.byDir.values()) list.sort();
    for (const list of made.swiftModules.values()) list.sort();
    return (this.#made = made);
  }

  has(path: string): boolean {
    return this.#paths.has(path);
  }

  /**
   * The Swift module a file belongs to; every file of a module sees the top-level declarations of
   * the others without an import. In order: a manifest's target with a folder of its own (the
   * deepest that holds the file); SwiftPM's `Sources/<Target>/`, `Tests/<Target>/`,
   * `Plugins/<Target>/` beside the nearest `Package.swift`; without a manifest `App/Sources/…`
   * (Tuist, XcodeGen) is module App and `Sources/Kit/…` Kit; else the file's first folder (an
   * Xcode project's target folder), "" at the root.
   */
  swiftModule(path: string): SwiftModule {
    let found = this.#swiftModuleOf.get(path);
    if (!found) this.#swiftModuleOf.set(path, (found = this.#findSwiftModule(path)));
    return found;
  }

  #findSwiftModule(path: string): SwiftModule {
    let target: SwiftModule | undefined;
    for (const t of this.#swiftTargets) if (path.startsWith(`${t.root}/`) && (!target || t.root.length > target.root.length)) target = t;
    if (target) return target;
    const parts = path.split("/");
    for (let i = parts.length - 3; i >= 0; i--) {
      if (!SWIFTPM_FOLDERS.has(parts[i]!)) continue;
      const base = parts.slice(0, i).join("/");
      if (this.#paths.has(base === "" ? "Package.swift" : `${base}/Package.swift`)) return { root: parts.slice(0, i + 2).join("/"), name: parts[i + 1]! };
    }
    const sources = parts.indexOf("Sources");
    if (sources > 0 && sources < parts.length - 1) return { root: parts.slice(0, sources).join("/"), name: parts[sources - 1]! };
    if (sources === 0 && parts.length > 2) return { root: `Sources/${parts[1]!}`, name: parts[1]! };
    return parts.length > 1 ? { root: parts[0]!, name: parts[0]! } : { root: "", name: "" };
  }

  /** Source files in the folder of `path`, of the same language family (a Go package, a Java package). */
  siblings(path: string): readonly string[] {
    const family = languageFamily(languageOf(path));
    const dir = dirOf(path);
    const key = `${family}\u0000${dir}`;
    let found = this.#siblings.get(key);
    if (!found) this.#siblings.set(key, (found = (this.#lookups.byDir.get(dir) ?? []).filter((p) => languageFamily(languageOf(p)) === family)));
    return found;
  }

  /** The files an import of `from` (written in `language`) refers to; empty when it is external. */
  resolve(from: string, language: Language, imp: ImportInfo): string[] {
    // Only relative specifiers depend on the importing folder; Rust's also on its module file.
    const where = language === "rust" ? from : dirOf(from);
    const key = `${language}\u0000${where}\u0000${imp.kind}\u0000${imp.module}\u0000${imp.names.map((n) => n.name).join(",")}`;
    let files = this.#memo.get(key);
    if (!files) this.#memo.set(key, (files = this.#resolve(from, language, imp)));
    return files;
  }

  #resolve(from: string, language: Language, imp: ImportInfo): string[] {
    switch (language) {
      case "python":
        return this.#python(from, imp);
      case "javascript":
      case "typescript":
      case "tsx":
        return this.#js(from, imp.module);
      case "java":
        return this.#java(imp);
      case "go":
        return this.#go(imp.module);
      case "rust":
        return this.#rust(from, imp.module);
      case "c":
      case "cpp":
        return this.#include(from, imp);
      case "ruby":
        return this.#ruby(from, imp.module);
      case "bash":
        return this.#script("bash", from, imp.module);
      case "php":
        return imp.kind === "require" ? this.#script("php", from, imp.module) : [];
      case "swift":
        // `import Kit.Sub`, `import struct Kit.Point`: the files of module Kit.
        return [...(this.#lookups.swiftModules.get(swiftImportedModule(imp)) ?? [])];
      case "csharp":
      case "kotlin":
      case "scala":
        // A namespace names no file: the resolver finds the files that declare it (by their symbols).
        return [];
      case "html":
        // A `<script src>` or stylesheet `<link>`; an inline module script's `import`.
        return imp.kind === "require" ? this.#script(/\.(?:css|scss|less)$/i.test(imp.module) ? "css" : "js", from, imp.module.replace(/^\//, "")) : this.#js(from, imp.module);
      case "css":
        return this.#style(from, imp.module);
      case "markdown":
      case "sql":
      case "yaml":
      case "json":
      case "toml":
        return [];
    }
  }

  /** A Python module path (`a.b`, `.x`, `..`) relative to `from`, as files. */
  pythonModule(from: string, module: string): string[] {
    const key = `py\u0000${dirOf(from)}\u0000${module}`;
    let files = this.#memo.get(key);
    if (!files) this.#memo.set(key, (files = this.#pythonModule(from, module)));
    return files;
  }

  #pythonModule(from: string, module: string): string[] {
    const dots = /^\.*/.exec(module)![0].length;
    const rest = module.slice(dots).split(".").filter((p) => p !== "");
    if (dots > 0) {
      let base = dirOf(from);
      for (let i = 1; i < dots; i++) base = dirOf(base);
      const stem = [base, ...rest].filter((p) => p !== "").join("/");
      return this.#firstExisting([
        ...PY_EXTENSIONS.map((e) => `${stem}${e}`),
        ...PY_EXTENSIONS.map((e) => `${stem === "" ? "" : `${stem}/`}__init__${e}`),
      ]);
    }
    return this.#byLongestTail("python", rest.join("/"), from);
  }

  #python(from: string, imp: ImportInfo): string[] {
    const module = this.pythonModule(from, imp.module);
    // `from pkg import sub` may import a submodule rather than a name of the package.
    const submodules = imp.names.flatMap((n) =>
      n.name === "*" ? [] : this.pythonModule(from, imp.module.endsWith(".") ? `${imp.module}${n.name}` : `${imp.module}.${n.name}`),
    );
    return [...new Set([...module, ...submodules])];
  }

  #js(from: string, specifier: string): string[] {
    let base: string;
    if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
      base = normalize(`${dirOf(from)}/${specifier}`);
    } else if (specifier.startsWith("@/") || specifier.startsWith("~/")) {
      // The common `paths` alias of a source root.
      const rest = specifier.slice(2);
      return this.#firstExisting(jsCandidates(`src/${rest}`)).concat(this.#firstExisting(jsCandidates(rest))).slice(0, 1);
    } else return this.#workspacePackage(specifier);
    if (base === "..") return [];
    // ESM TypeScript writes `./a.js` for `./a.ts`.
    const stripped = base.replace(/\.(?:js|jsx|mjs|cjs)$/, "");
    return this.#firstExisting([...jsCandidates(base), ...(stripped !== base ? jsCandidates(stripped) : [])]);
  }

  /**
   * A bare specifier naming a package of this repository (a monorepo's workspace: `@babel/types`,
   * `shared/utils`): its sources rather than its build output, which is rarely checked in.
   */
  #workspacePackage(specifier: string): string[] {
    const name = packageName(specifier);
    const dir = name === null ? undefined : this.#packages.get(name);
    if (dir === undefined) return [];
    const rest = specifier.slice(name!.length + 1);
    const base = dir === "" ? "" : `${dir}/`;
    const candidates = rest
      ? [...jsCandidates(`${base}src/${rest}`), ...jsCandidates(`${base}${rest}`), ...jsCandidates(`${base}${rest.replace(/^(lib|dist|build)\//, "src/")}`)]
      : [...jsCandidates(`${base}src/index`), ...jsCandidates(`${base}index`), ...jsCandidates(`${base}lib/index`)];
    return this.#firstExisting(candidates);
  }

  #java(imp: ImportInfo): string[] {
    const dir = imp.module.replace(/\./g, "/");
    const named = imp.names.filter((n) => n.name !== "*");
    if (named.length < imp.names.length) {
      // `import a.b.*`: every class of the package, or the nested classes of a class.
      const files = this.#byLongestTail("java", dir, "");
      for (const d of this.#dirsEndingWith(dir)) files.push(...this.#lookups.byDir.get(d)!);
      return [...new Set(files.filter((f) => f.endsWith(".java")))].sort();
    }
    if (named.length === 0) return this.#exactTail("java", dir);
    // `import a.b.C` is a class file; `import static a.b.C.m` names a member of one.
    return [...new Set(named.flatMap((n) => {
      const cls = this.#exactTail("java", `${dir}/${n.name}`);
      return cls.length > 0 ? cls : this.#exactTail("java", dir);
    }))];
  }

  #go(importPath: string): string[] {
    // The longest tail of the import path that is a folder of Go files: module paths need not
    // match where the repository sits. A one-folder tail only for paths that are not the standard
    // library's (`net/http` must not find a folder named `http`).
    const parts = importPath.split("/");
    const external = parts.length > 1 && !parts[0]!.includes(".") && GO_STD.has(parts[0]!);
    const last = external || parts.length === 1 ? parts.length - 2 : parts.length - 1;
    for (let i = 0; i <= last; i++) {
      const tail = parts.slice(i).join("/");
      const files: string[] = [];
      for (const dir of this.#dirsEndingWith(tail)) files.push(...this.#lookups.byDir.get(dir)!.filter((p) => p.endsWith(".go") && !p.endsWith("_test.go")));
      if (files.length > 0) return files.sort();
    }
    return [];
  }

  #rust(from: string, module: string): string[] {
    const segments = module.split("::").filter((s) => s !== "");
    if (segments.length === 0) return [];
    let base: string;
    let rest: string[];
    const head = segments[0]!;
    if (head === "crate") {
      base = crateRoot(from, this.#paths);
      rest = segments.slice(1);
    } else if (head === "self" || head === "super") {
      base = rustModuleDir(from);
      let i = 0;
      for (; segments[i] === "super" || segments[i] === "self"; i++) if (segments[i] === "super") base = dirOf(base);
      rest = segments.slice(i);
    } else {
      // Another crate of the workspace (`use other_crate::x`), or an external one.
      // The first such folder, with the crate's name as written or with `-` for `_`.
      const [found] = [...new Set([`${head}/src`, `${head.replace(/_/g, "-")}/src`])]
        .flatMap((tail) => this.#dirsEndingWith(tail).slice(0, 1))
        .sort((a, b) => this.#dirTails!.order.get(a)! - this.#dirTails!.order.get(b)!);
      if (found === undefined) return [];
      base = found;
      rest = segments.slice(1);
    }
    // The longest prefix of the rest that is a module file; what is left names items in it.
    for (let n = rest.length; n >= 0; n--) {
      const stem = [base, ...rest.slice(0, n)].filter((p) => p !== "").join("/");
      const files = n === 0
        ? this.#firstExisting([`${stem}/lib.rs`, `${stem}/main.rs`, `${stem}/mod.rs`, `${stem}.rs`])
        : this.#firstExisting([`${stem}.rs`, `${stem}/mod.rs`]);
      if (files.length > 0) return files;
    }
    return [];
  }

  /**
   * An `#include`: `"x.h"` beside the including file first, then (and for `<x.h>` only) in the
   * include folders the build files name, then any file of the repository whose path ends with
   * it, the closest to the including file when several do (a repository need not say its folders).
   */
  #include(from: string, imp: ImportInfo): string[] {
    const spec = imp.module.replace(/^\.\//, "");
    const candidates = imp.kind === "include" ? [normalize(`${dirOf(from)}/${spec}`)] : [];
    for (const { scope, dirs } of this.#includeDirs) {
      if (scope !== "" && !from.startsWith(`${scope}/`)) continue;
      for (const dir of dirs) candidates.push(normalize(dir === "" ? spec : `${dir}/${spec}`));
    }
    const found = this.#firstExisting(candidates.filter((c) => c !== ".." && !c.startsWith("../")));
    // `<string.h>` is the system's unless an include folder says otherwise; `<fmt/core.h>` may be
    // the repository's own, wherever it keeps it.
    if (found.length > 0 || spec.startsWith("../") || (imp.kind === "system" && !spec.includes("/"))) return found;
    const tail: string[] = [];
    const key = `c:${spec.slice(spec.lastIndexOf("/") + 1).replace(/\.[\w+]+$/, "")}`;
    for (const { path } of this.#lookups.byStem.get(key) ?? []) if (path === spec || path.endsWith(`/${spec}`)) tail.push(path);
    return closestTo(tail, from).slice(0, 1);
  }

  /**
   * Ruby's `require_relative "./x"` from the file's folder; `require "a/b"` from a load path: a
   * `lib/` folder, the root, or any folder for a path of several segments (`require "json"` is
   * the gem's unless the repository has `lib/json.rb`).
   */
  #ruby(from: string, spec: string): string[] {
    const bare = spec.replace(/\.rb$/, "");
    if (bare.startsWith("./") || bare.startsWith("../")) {
      const path = normalize(`${dirOf(from)}/${bare}`);
      return path === ".." || path.startsWith("../") ? [] : this.#firstExisting([`${path}.rb`, path]);
    }
    const found = this.#exactTail("ruby", bare);
    const loadPath = bare.includes("/") ? found : found.filter((p) => p === `${bare}.rb` || p.endsWith(`lib/${bare}.rb`));
    return closestTo(loadPath, from).slice(0, 1);
  }

  /**
   * A style sheet's `@import` / `@use`: the path, or with `.css`, `.scss` or `.less` added, or a Sass
   * partial (`partials/vars` is `partials/_vars.scss`), beside the importing file first.
   */
  #style(from: string, spec: string): string[] {
    const slash = spec.lastIndexOf("/");
    const partial = `${spec.slice(0, slash + 1)}_${spec.slice(slash + 1)}`;
    const variants = /\.(?:css|scss|sass|less)$/i.test(spec) ? [spec, partial] : [".scss", ".css", ".less", ".sass"].flatMap((e) => [`${spec}${e}`, `${partial}${e}`]);
    const found = this.#firstExisting(variants.map((v) => normalize(`${dirOf(from)}/${v}`)).filter((c) => !c.startsWith("../")));
    return found.length > 0 ? found : this.#script("css", from, variants[0]!);
  }

  /**
   * A sourced script or a PHP `require`: from the file's folder, then from the root, then by path
   * tail, the closest first.
   */
  #script(family: string, from: string, spec: string): string[] {
    const candidates = [normalize(`${dirOf(from)}/${spec}`), ...(spec.startsWith(".") ? [] : [normalize(spec)])];
    const found = this.#firstExisting(candidates.filter((c) => c !== ".." && !c.startsWith("../")));
    if (found.length > 0 || spec.startsWith("../")) return found;
    const tail = spec.replace(/^\.\//, "");
    const key = `${family}:${stemOf(tail)}`;
    return closestTo((this.#lookups.byStem.get(key) ?? []).map((e) => e.path).filter((p) => p === tail || p.endsWith(`/${tail}`)), from).slice(0, 1);
  }

  /** Files whose module path equals `tail` after some folder prefix, the closest to `from` when several. */
  #byLongestTail(language: Language, tail: string, from: string): string[] {
    // Several roots hold the module (`src/pkg/x.py`, `build/lib/pkg/x.py`).
    return closestTo(this.#exactTail(language, tail), from);
  }

  /** Files whose module path is `tail` or ends with `/tail`, in path order. */
  #exactTail(language: Language, tail: string): string[] {
    if (tail === "") return [];
    const stem = tail.slice(tail.lastIndexOf("/") + 1);
    const found: string[] = [];
    for (const { path, module } of this.#lookups.byStem.get(`${languageFamily(language)}:${stem}`) ?? []) {
      if (module === tail || module.endsWith(`/${tail}`)) found.push(path);
    }
    return found.sort();
  }

  /** Folders with source files that are `tail` or end with `/tail`, in the order of {@link ModuleResolver.#byDir}. */
  #dirsEndingWith(tail: string): string[] {
    if (!this.#dirTails) {
      const lists = new Map<string, string[]>();
      const order = new Map<string, number>();
      for (const dir of this.#lookups.byDir.keys()) {
        order.set(dir, order.size);
        const parts = dir.split("/");
        for (const key of new Set([parts.slice(-1).join("/"), parts.slice(-2).join("/")])) {
          const list = lists.get(key);
          if (list) list.push(dir);
          else lists.set(key, [dir]);
        }
      }
      this.#dirTails = { lists, order };
    }
    // A folder that ends with the tail ends with the tail's last two segments (or its only one).
    const key = tail.split("/").slice(-2).join("/");
    return (this.#dirTails.lists.get(key) ?? []).filter((d) => d === tail || d.endsWith(`/${tail}`));
  }

  #firstExisting(candidates: string[]): string[] {
    for (const c of candidates) if (this.#paths.has(c)) return [c];
    return [];
  }
}

function jsCandidates(base: string): string[] {
  return [base, ...JS_EXTENSIONS.map((e) => `${base}${e}`), ...JS_EXTENSIONS.map((e) => `${base}/index${e}`)];
}

/** Resolves `.` and `..` segments of a relative path; a path above the root keeps a leading `..`. */
export function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return "..";
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

/** The paths that share the most folders with `from`, then the shortest (several when tied), in path order. */
function closestTo(paths: readonly string[], from: string): string[] {
  if (paths.length <= 1) return [...paths];
  const score = (p: string): number => commonPrefixDirs(p, from) * 1000 - p.length;
  const best = Math.max(...paths.map(score));
  return paths.filter((p) => score(p) === best).sort();
}

function commonPrefixDirs(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  let n = 0;
  while (n < pa.length - 1 && n < pb.length - 1 && pa[n] === pb[n]) n++;
  return n;
}

/** The folder of the crate `from` belongs to: the nearest folder above it with `lib.rs` or `main.rs`. */
function crateRoot(from: string, paths: ReadonlySet<string>): string {
  for (let dir = dirOf(from); ; dir = dirOf(dir)) {
    const prefix = dir === "" ? "" : `${dir}/`;
    if (paths.has(`${prefix}lib.rs`) || paths.has(`${prefix}main.rs`)) return dir;
    if (dir === "") return dirOf(from);
  }
}

/** The folder holding the child modules of a Rust module file (`src/a.rs` -> `src/a`, `src/a/mod.rs` -> `src/a`). */
function rustModuleDir(path: string): string {
  const stem = stemOf(path);
  return FOLDER_FILES.test(stem) ? dirOf(path) : path.replace(/\.rs$/, "");
}
