import { tokenize } from "../core/tokenize.js";

/**
 * Where an installed package's files are (Python's `site-packages`, Debian's `dist-packages`, an
 * egg's folder in them): the path after it is the package's.
 */
const INSTALLED = /(?:^|\/)(?:site|dist)-packages\/(?:[^/]+\.egg\/)?/;
/** Extensions a module path may resolve to, and the file names that stand for their folder. */
const MODULE_EXTS = new Set(["py", "pyi", "pyx", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "java", "go", "rs"]);
const FOLDER_MODULES = new Set(["__init__", "index", "mod", "lib"]);

/**
 * The repository's file paths, arranged for resolving what a task writes: a path (maybe
 * absolute, maybe only a file name), a dotted module path, a path's tokens.
 */
export class PathIndex {
  readonly #paths: Set<string>;
  readonly #byBase = new Map<string, string[]>();
  #modules: Map<string, Array<{ module: string; path: string }>> | undefined;
  readonly #tokens = new Map<string, string[]>();
  readonly #loadRenamed: () => ReadonlyMap<string, string>;
  #former: { index: PathIndex; renamed: ReadonlyMap<string, string> } | undefined;

  /**
   * @param renamed paths the repository's history renamed, each with the file it is now: a written
   *   path that names no file resolves through them (a traceback from an older release). Asked for
   *   on each such path; a new map (the history read again) is indexed anew.
   */
  constructor(paths: Iterable<string>, renamed: () => ReadonlyMap<string, string> = () => new Map()) {
    this.#paths = new Set(paths);
    this.#loadRenamed = renamed;
    for (const path of this.#paths) {
      const base = path.slice(path.lastIndexOf("/") + 1);
      const list = this.#byBase.get(base);
      if (list) list.push(path);
      else this.#byBase.set(base, [path]);
    }
  }

  get size(): number {
    return this.#paths.size;
  }

  has(path: string): boolean {
    return this.#paths.has(path);
  }

  /** The files with this base name (`zstd.h`), wherever they are. */
  named(base: string): readonly string[] {
    return this.#byBase.get(base) ?? [];
  }

  /**
   * Files a written path may mean: the path itself; for an absolute path or one with a prefix
   * the repository does not have (`/home/me/proj/src/app.py`), the longest tail that is a file;
   * for an installed package's file (`…/site-packages/pkg/x.py`), the files ending with its path in
   * the package (`src/pkg/x.py` in a src layout); for a bare or partial path, the files ending with it.
   * Where that finds nothing, the same for the paths the history renamed, each read as the file it
   * is now.
   */
  resolve(written: string): string[] {
    const found = this.#resolveHere(written);
    if (found.length > 0) return found;
    const renamed = this.#loadRenamed();
    if (this.#former?.renamed !== renamed) this.#former = { index: new PathIndex(renamed.keys()), renamed };
    const now = new Set<string>();
    for (const former of this.#former.index.#resolveHere(written)) {
      const path = this.#former.renamed.get(former)!;
      if (this.#paths.has(path)) now.add(path);
    }
    return [...now];
  }

  #resolveHere(written: string): string[] {
    const path = written.replace(/\\/g, "/").replace(/^\.\//, "");
    if (this.#paths.has(path)) return [path];
    // A package's folder and file at least: a module alone (`site-packages/six.py`) would match
    // every file of that name, a vendored copy's too.
    const installed = INSTALLED.exec(path);
    const inPackage = installed ? parts(path.slice(installed.index + installed[0].length)) : [];
    if (inPackage.length >= 2) {
      const found = this.#endingWith(inPackage);
      if (found.length > 0) return found;
    }
    const all = parts(path);
    for (let i = 1; i < all.length; i++) {
      const tail = all.slice(i).join("/");
      if (this.#paths.has(tail)) return [tail];
    }
    return this.#endingWith(all);
  }

  /** The files whose path ends with these parts. */
  #endingWith(parts: readonly string[]): string[] {
    const base = parts[parts.length - 1];
    if (!base) return [];
    const suffix = `/${parts.join("/")}`;
    return (this.#byBase.get(base) ?? []).filter((p) => `/${p}`.endsWith(suffix));
  }

  /**
   * The longest prefix of a dotted path (`sympy.core.expr.Expr.diff`) of at least two parts
   * that names a module file, with the parts left over (`["Expr", "diff"]`). A module is named by
   * any tail of at least two parts of its module path: `src/shop/payments/retry.py` by
   * `shop.payments.retry` and `payments.retry` (a task rarely writes the `src` prefix).
   */
  resolveModule(dotted: string): { paths: string[]; rest: string[] } | null {
    const parts = dotted.split(".");
    const modules = this.#moduleFiles();
    for (let i = parts.length; i >= 2; i--) {
      const key = parts.slice(0, i).join("/");
      const found = (modules.get(parts[i - 1]!) ?? []).filter(({ module }) => module === key || module.endsWith(`/${key}`)).map(({ path }) => path);
      if (found.length > 0) return { paths: found, rest: parts.slice(i) };
    }
    return null;
  }

  /** Tokens of a path (code tokenizer), memoised. */
  tokens(path: string): string[] {
    let t = this.#tokens.get(path);
    if (!t) this.#tokens.set(path, (t = [...new Set(tokenize(path.replace(/\.\w+$/, "")))]));
    return t;
  }

  // Source files by the last part of their module path (`retry` for `src/shop/payments/retry.py`
  // and for `…/retry/__init__.py`), each with that path. One entry a file: a map of every tail of
  // every module path took 100 ms of a one-shot query on babel's 27,000 files.
  #moduleFiles(): Map<string, Array<{ module: string; path: string }>> {
    if (this.#modules) return this.#modules;
    const modules = new Map<string, Array<{ module: string; path: string }>>();
    for (const path of this.#paths) {
      const dot = path.lastIndexOf(".");
      if (dot < 0 || !MODULE_EXTS.has(path.slice(dot + 1))) continue;
      let module = path.slice(0, dot);
      let slash = module.lastIndexOf("/");
      if (slash >= 0 && FOLDER_MODULES.has(module.slice(slash + 1))) {
        module = module.slice(0, slash);
        slash = module.lastIndexOf("/");
      }
      const last = module.slice(slash + 1);
      const list = modules.get(last);
      if (list) list.push({ module, path });
      else modules.set(last, [{ module, path }]);
    }
    return (this.#modules = modules);
  }
}

/** A written path's folders and file, without empty, `.` and `..` parts. */
function parts(path: string): string[] {
  return path.split("/").filter((p) => p !== "" && p !== "." && p !== "..");
}
