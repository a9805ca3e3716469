import { languageOf } from "../core/languages.js";
import type { ApiFacts, ImportInfo, Language, SymbolInfo, UrlPart } from "../core/types.js";
import type { IndexStore } from "../store/store.js";
import { canonicalPattern, type ApiCall, type ApiRoute } from "./api-links.js";
import { innermostAt } from "./lookup.js";
import { ModuleResolver } from "./modules.js";

/** How deep router mounts are followed (`app.use('/api', api)`, `api.use(tags)`, …). */
const MAX_MOUNT_DEPTH = 8;
/** How many full prefixes one router may have (mounted in several places). */
const MAX_PREFIXES = 32;
/** A prefix whose value the code does not say (a setting, an environment variable): kept by name. */
const UNKNOWN = (name: string): string => `\u0001${name}\u0001`;
/** Where a wrapper's parameter goes in its URL, until the call's URL is put there. */
const PARAM = "\u0002";

interface FileFacts {
  path: string;
  language: Language;
  symbols: readonly SymbolInfo[];
  imports: readonly ImportInfo[];
  api: ApiFacts;
}

/** A repository's files with HTTP facts, and what resolving names across them needs. */
interface RepoFacts {
  files: ReadonlyMap<string, FileFacts>;
  resolver: ModuleResolver;
  /** Constant name (`NAME`, `Class.NAME`, `pkg.NAME`) → the files that define it. */
  constants: ReadonlyMap<string, readonly FileFacts[]>;
  /** Router name → the files whose routers (or router-returning functions) have it. */
  routers: ReadonlyMap<string, readonly FileFacts[]>;
  /** Files by directory, by stem (`users` for `users.rs`) and by the names of the folders above them: where a package or a module may be. */
  byDir: ReadonlyMap<string, readonly string[]>;
  byStem: ReadonlyMap<string, readonly string[]>;
  byFolder: ReadonlyMap<string, readonly string[]>;
  symbols(path: string): readonly SymbolInfo[];
}

const HTTP_METHODS = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$/;

/**
 * The routes a repository serves and the HTTP requests it makes, from the facts its parse stored
 * (indexing/parse/api/): router mounts followed across files through their imports to full
 * paths, URLs built from constants and wrappers resolved. Matching calls to routes is
 * {@link linkApi}'s.
 */
export function repositoryApi(store: IndexStore): { routes: ApiRoute[]; calls: ApiCall[] } {
  const files = new Map<string, FileFacts>();
  const routes: ApiRoute[] = [];
  // Paths only (nothing decoded): a repository that says nothing about HTTP costs a key scan.
  const paths = [...store.allPaths()];
  for (const path of paths) {
    if (!NEXT_FILE.test(path)) continue;
    const language = languageOf(path);
    const symbols = language === "javascript" || language === "typescript" || language === "tsx" ? store.parse.symbols(path) : undefined;
    if (symbols) routes.push(...nextRoutes(path, symbols));
  }
  // Only the files with HTTP facts are read whole.
  for (const path of store.parse.apiPaths()) {
    const record = store.parse.api(path);
    const language = languageOf(path);
    if (record && language) files.set(path, { path, language, symbols: store.parse.symbols(path) ?? [], imports: record.imports, api: record.facts });
  }
  if (files.size === 0) return { routes, calls: [] };
  // Built on first use: most maps never look a package up by folder.
  let resolver: ModuleResolver | undefined;
  let folders: { byDir: Map<string, string[]>; byStem: Map<string, string[]>; byFolder: Map<string, string[]> } | undefined;
  const foldersOf = () => (folders ??= { byDir: byName(paths, (p) => [dirOf(p)]), byStem: byName(paths, (p) => [stemOf(p)]), byFolder: byName(paths, (p) => p.split("/").slice(0, -1)) });
  const repo: RepoFacts = {
    files,
    get resolver() {
      return (resolver ??= new ModuleResolver(paths));
    },
    constants: byName(files.values(), (f) => Object.keys(f.api.strings)),
    routers: byName(files.values(), (f) => [...f.api.routers, ...Object.keys(f.api.exports)]),
    get byDir() {
      return foldersOf().byDir;
    },
    get byStem() {
      return foldersOf().byStem;
    },
    get byFolder() {
      return foldersOf().byFolder;
    },
    symbols: (path) => (path === "" ? [] : (files.get(path)?.symbols ?? store.parse.symbols(path) ?? [])),
  };
  // Router identities are `file#name`; a mount makes one the child of another, under a prefix.
  const parentsOf = new Map<string, Array<{ parent: string; prefix: string; replaces: boolean }>>();
  for (const file of files.values()) {
    for (const mount of file.api.mounts) {
      const child = childIdentity(file, mount.child, repo);
      if (!child) continue;
      const list = parentsOf.get(child) ?? parentsOf.set(child, []).get(child)!;
      const edge = { parent: `${file.path}#${mount.parent}`, prefix: mount.prefix ? text(mount.prefix, file, repo) : "", replaces: mount.replaces === true };
      if (!list.some((e) => e.parent === edge.parent && e.prefix === edge.prefix && e.replaces === edge.replaces)) list.push(edge);
    }
  }
  // Each router's full prefixes, once: `replaced` where the mount replaced the router's own prefix.
  // Memoised at every level, a router on the current path counting as unmounted (a cycle is cut there):
  // each router is resolved once, however many ways lead to it.
  const memo = new Map<string, Array<{ prefix: string; replaced: boolean }>>();
  const onPath = new Set<string>();
  const prefixesOf = (identity: string, depth = 0): Array<{ prefix: string; replaced: boolean }> => {
    const known = memo.get(identity);
    if (known) return known;
    const parents = parentsOf.get(identity);
    if (!parents || depth >= MAX_MOUNT_DEPTH || onPath.has(identity)) return [{ prefix: "", replaced: false }];
    onPath.add(identity);
    const found = new Map<string, { prefix: string; replaced: boolean }>();
    for (const p of parents) {
      for (const above of prefixesOf(p.parent, depth + 1)) {
        if (found.size >= MAX_PREFIXES) break;
        const prefix = joinPaths(above.prefix, p.prefix);
        found.set(`${prefix}\0${p.replaces}`, { prefix, replaced: p.replaces });
      }
    }
    onPath.delete(identity);
    const result = [...found.values()];
    memo.set(identity, result);
    return result;
  };

  // NestJS: `app.setGlobalPrefix('api')` comes before every controller's routes.
  const globalFile = [...files.values()].find((f) => f.api.global !== undefined);
  const globalPrefix = globalFile ? text(globalFile.api.global!, globalFile, repo) : "";
  const calls: ApiCall[] = [];
  for (const file of [...files.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    for (const route of file.api.routes) {
      const own = text(route.path, file, repo);
      const ownPrefix = file.api.prefixes[route.router] ? text(file.api.prefixes[route.router]!, file, repo) : "";
      for (const { prefix, replaced } of prefixesOf(`${file.path}#${route.router}`)) {
        const joined = joinPaths(joinPaths(joinPaths(route.controller ? globalPrefix : "", prefix), replaced ? "" : ownPrefix), own);
        // Django and NestJS write paths without the leading slash.
        const full = /^[/\u0001\u0000]|^[a-z][a-z0-9+.-]*:\/\//i.test(joined) ? joined : `/${joined}`;
        const { shown, unknownPrefix } = showUnknown(full);
        routes.push({
          method: route.method,
          path: shown,
          pattern: canonicalPattern(unknownAsParameter(full)),
          file: file.path,
          line: route.line,
          handler: route.handler,
          ...(route.inline ? { handlerFile: file.path, handlerLine: route.inline[0], handlerEndLine: route.inline[1] } : handlerAt(file, route.handler, repo)),
          ...(unknownPrefix ? { unknownPrefix } : {}),
        });
      }
    }
    for (const call of file.api.calls) {
      const own = file.api.wrappers.find((w) => w.name === call.client);
      const wrapped = own ? { wrapper: own, in: file } : (importedWrapper(file, call.client, repo) ?? importedInstance(file, call, repo));
      if (call.viaWrapper && !wrapped) continue;
      const asCalled = text(call.url, file, repo);
      // A wrapper's own parts (its base URL) read in its file; the call's in the caller's.
      const written = wrapped ? text(wrapped.wrapper.url.map((p) => (typeof p === "object" && "ref" in p && p.ref === wrapped.wrapper.param ? PARAM : p)), wrapped.in, repo).replace(PARAM, asCalled) : asCalled;
      const wrapper = wrapped?.wrapper;
      // A base URL from configuration (`${process.env.API}/users`) is kept by name; the path after it is matched.
      const { shown, unknownPrefix: base } = showUnknown(written);
      const path = base === undefined ? written : written.slice(base.length + 2);
      const host = /^[a-z][a-z0-9+.-]*:\/\/([^/]+)/i.exec(path)?.[1]?.toLowerCase();
      calls.push({
        method: (wrapper?.method ?? call.method)?.toUpperCase() ?? "*",
        url: shown,
        pattern: canonicalPattern(unknownAsParameter(written)),
        file: file.path,
        line: call.line,
        symbol: innermostAt(file.symbols, call.line)?.qualifiedName ?? null,
        ...(base !== undefined ? { base } : {}),
        ...(host ? { host } : {}),
        ...(/^\u0000/.test(path) ? { dynamic: true as const } : {}),
      });
    }
  }
  routes.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { routes, calls };
}

/**
 * Where a route's handler is defined (`handlerFile`, `handlerLine`): in the route's file, through
 * its imports (`usersController.login`, `views.follow`), or, for Go, Rust and Java, in the package
 * or module its qualifier names (`tags::list`, `handlers.List`, a Go function of the same
 * directory). Nothing when the handler is written inline or cannot be found.
 */
function handlerAt(file: FileFacts, handler: string, repo: RepoFacts): { handlerFile?: string; handlerLine?: number } {
  if (handler === "") return {};
  const name = lastSegment(handler);
  const here = symbolNamed(file.symbols, handler, name);
  if (here) return { handlerFile: file.path, handlerLine: here.startLine };
  const imported = importedName(file, handler, repo.resolver);
  if (imported) {
    const there = symbolNamed(repo.symbols(imported.path), imported.name, lastSegment(imported.name));
    return there ? { handlerFile: imported.path, handlerLine: there.startLine } : {};
  }
  if (file.language === "python" || file.language === "javascript" || file.language === "typescript" || file.language === "tsx") return {};
  const segments = handler.split(/::|\./);
  const qualifier = segments.length > 1 ? segments[segments.length - 2]! : null;
  const candidates = qualifier ? [...(repo.byStem.get(qualifier) ?? []), ...(repo.byFolder.get(qualifier) ?? [])] : (repo.byDir.get(dirOf(file.path)) ?? []);
  for (const path of new Set(candidates)) {
    if (path === file.path || languageOf(path) !== file.language) continue;
    const there = symbolNamed(repo.symbols(path), handler, name);
    if (there) return { handlerFile: path, handlerLine: there.startLine };
  }
  return {};
}

function symbolNamed(symbols: readonly SymbolInfo[], qualified: string, name: string): SymbolInfo | undefined {
  return symbols.find((s) => s.qualifiedName === qualified) ?? symbols.find((s) => s.name === name && s.parent === -1) ?? symbols.find((s) => s.name === name && s.kind !== "class");
}

/**
 * Whether a file of the repository may serve a route: a route among its HTTP facts, or a Next.js
 * route file (among `paths`, every path of the index: its keys are read unless a caller has them). Without one, no request of the repository reaches code of its own, and linking within
 * it needs no map: {@link repositoryApi} resolves every request through the imports of all files
 * (20 ms of a one-shot `context` on sympy, which makes two requests and serves nothing).
 */
export function servesRoutes(store: IndexStore, paths: Iterable<string> = store.allPaths()): boolean {
  for (const path of paths) if (NEXT_FILE.test(path)) return true;
  return store.parse.apiPaths().some((path) => (store.parse.api(path)?.facts.routes.length ?? 0) > 0);
}

/** Next.js: files under `pages/api/`, and the App Router's `route.ts` files under `app/`, by their paths. */
const NEXT_FILE = /(^|\/)(pages\/api\/.+|app\/(.+\/)?route)\.(js|jsx|ts|tsx|mjs)$/;

/**
 * A Next.js file's routes: under `pages/api` (every file there is a route) one route for any
 * method (the handler reads `req.method`), served by its `handler` or first function; an App
 * Router `route.ts` one route per method function (`export async function GET`). `[id]` and `[...slug]` are parameters; route
 * groups `(shop)`, `index` and private `_folders` are not segments.
 */
function nextRoutes(path: string, symbols: readonly SymbolInfo[]): ApiRoute[] {
  const match = NEXT_FILE.exec(path)!;
  const appRouter = match[2]!.startsWith("app/");
  const segments = (appRouter ? match[3] ?? "" : match[2]!.slice("pages/".length)).split("/").filter((s) => s !== "");
  if (segments.some((s) => s.startsWith("_"))) return [];
  if (!appRouter && segments[segments.length - 1] === "index") segments.pop();
  const routePath = `/${segments
    .filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("@"))
    .map((s) => s.replace(/^\[\[?(?:\.\.\.)?([^\]]+)\]\]?$/, "{$1}"))
    .join("/")}`;
  const top = symbols.filter((s) => s.parent === -1);
  const route = (method: string, handler: string, line: number): ApiRoute => ({ method, path: routePath, pattern: canonicalPattern(routePath), file: path, line, handler, ...(handler === "default" ? {} : { handlerFile: path, handlerLine: line }) });
  if (appRouter) return top.filter((s) => HTTP_METHODS.test(s.name)).map((s) => route(s.name, s.name, s.startLine));
  const handler = top.find((s) => s.name === "handler") ?? top.find((s) => s.kind === "function");
  return [route("*", handler?.name ?? "default", handler?.startLine ?? 1)];
}

/** The identity of a mounted router as the mounting file names it: its own, one it imports, or one of its package. */
function childIdentity(file: FileFacts, child: string, repo: RepoFacts): string | null {
  if (file.api.routers.includes(child)) return `${file.path}#${child}`;
  // A Go function that returns a router variable.
  const returned = file.api.exports[child];
  if (returned && file.api.routers.includes(returned)) return `${file.path}#${returned}`;
  // Django `include('articles.urls')`: that module's `urlpatterns`.
  const module = /^module:(.+)$/.exec(child)?.[1];
  if (module) {
    const target = repo.resolver.pythonModule(file.path, module)[0];
    return target ? `${target}#urlpatterns` : null;
  }
  const required = /^require\((['"])(.+)\1\)$/.exec(child)?.[2];
  if (required) {
    const target = repo.resolver.resolve(file.path, file.language, { module: required, names: [], alias: "", kind: "require", line: 0 })[0];
    return target ? `${target}#${repo.files.get(target)?.api.exports.default ?? "default"}` : null;
  }
  const imported = importedName(file, child, repo.resolver);
  if (imported) {
    const target = repo.files.get(imported.path);
    const local = target?.api.exports[imported.name] ?? imported.name;
    return `${imported.path}#${local}`;
  }
  const elsewhere = packageNamed(file, child, repo.routers);
  if (!elsewhere) return null;
  const name = lastSegment(child);
  const local = elsewhere.api.routers.includes(name) ? name : elsewhere.api.exports[name]!;
  return `${elsewhere.path}#${local}`;
}

/**
 * Where a name that no import explains is defined, for the languages whose imports name packages
 * rather than files (Go, Rust, Java): a bare name in the same package (a Go directory) or, for Rust
 * and Java, only when the file imports that name (`use crate::handlers::article`); a qualified
 * name (`users.Register`, `users::router`, `ApiPaths.X`) where it is defined once, or in the package
 * or module its qualifier names. Nothing when that is not one file.
 */
function packageNamed(file: FileFacts, name: string, table: ReadonlyMap<string, readonly FileFacts[]>): FileFacts | undefined {
  if (file.language === "python" || file.language === "javascript" || file.language === "typescript" || file.language === "tsx") return undefined;
  const segments = name.split(/::|\./);
  const qualifier = segments.length > 1 ? segments[segments.length - 2]! : null;
  const last = segments[segments.length - 1]!;
  const sameLanguage = (f: FileFacts) => f.language === file.language && f !== file;
  if (qualifier === null) {
    const candidates = (table.get(name) ?? []).filter(sameLanguage);
    const dir = dirOf(file.path);
    const imported = file.imports.some((imp) => imp.names.some((n) => (n.alias || n.name) === name) || imp.module.endsWith(`::${name}`) || imp.module.endsWith(`.${name}`));
    const matching = file.language === "go" ? candidates.filter((f) => dirOf(f.path) === dir) : imported ? candidates : [];
    return matching.length === 1 ? matching[0] : undefined;
  }
  const exact = (table.get(name) ?? []).filter(sameLanguage);
  if (exact.length === 1) return exact[0];
  const candidates = (table.get(last) ?? []).filter(sameLanguage);
  const matching = candidates.filter((f) => f.path.split("/").slice(0, -1).includes(qualifier) || stemOf(f.path) === qualifier);
  return matching.length === 1 ? matching[0] : undefined;
}

function lastSegment(name: string): string {
  const segments = name.split(/::|\./);
  return segments[segments.length - 1]!;
}

function dirOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
}

function stemOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.[^.]*$/, "");
}

function byName<T>(items: Iterable<T>, names: (item: T) => string[]): Map<string, T[]> {
  const table = new Map<string, T[]>();
  for (const item of items) for (const name of names(item)) (table.get(name) ?? table.set(name, []).get(name)!).push(item);
  return table;
}

/** A wrapper another file defines, called here through an import (`agent.get(…)`, `import { requests }`). */
function importedWrapper(file: FileFacts, client: string, repo: RepoFacts): { wrapper: ApiFacts["wrappers"][number]; in: FileFacts } | undefined {
  const imported = importedName(file, client, repo.resolver);
  const target = imported && repo.files.get(imported.path);
  const wrapper = target?.api.wrappers.find((w) => w.name === imported!.name);
  return wrapper && { wrapper, in: target! };
}

/**
 * A client instance another file makes (`export const orders = axios.create({ baseURL })`), used
 * here (`orders.delete(…)`): as a wrapper whose URL is its base URL, then the call's.
 */
function importedInstance(file: FileFacts, call: ApiFacts["calls"][number], repo: RepoFacts): { wrapper: ApiFacts["wrappers"][number]; in: FileFacts } | undefined {
  const dot = call.client.lastIndexOf(".");
  if (dot < 0) return undefined;
  const imported = importedName(file, call.client.slice(0, dot), repo.resolver);
  const target = imported && repo.files.get(imported.path);
  const base = target?.api.instances[imported!.name];
  return base && { wrapper: { name: call.client, method: call.method, url: [...base, { ref: "\u0002" }], param: "\u0002" }, in: target! };
}

/**
 * The file and name behind a local name (`tags`, `users.router`, `api_router`) through the file's
 * imports: `import tags from './tags'` is `default` of that file, `from app.routes import users`
 * then `users.router` is `router` of `app/routes/users.py`.
 */
function importedName(file: FileFacts, local: string, resolver: ModuleResolver): { path: string; name: string } | null {
  const [head, ...rest] = local.split(".");
  for (const imp of file.imports) {
    const named = imp.names.find((n) => (n.alias || n.name) === head);
    if (named) {
      const target = moduleFile(file, imp, named.name, resolver);
      // A submodule's name is its attribute (`users.router` → `router`); a name's is itself and its members (`apiClient.post`).
      if (target) return { path: target.path, name: target.isModule && rest.length > 0 ? rest.join(".") : [named.name, ...rest].join(".") };
    }
    if (imp.alias === head) {
      // `import * as api` then `api.router`; `const users = require('./users')` is its module's export.
      const target = resolver.resolve(file.path, file.language, imp)[0];
      if (target && rest.length > 0) return { path: target, name: rest.join(".") };
      if (target && imp.kind === "require") return { path: target, name: "default" };
    }
  }
  return null;
}

function moduleFile(file: FileFacts, imp: ImportInfo, name: string, resolver: ModuleResolver): { path: string; isModule: boolean } | null {
  if (file.language === "python") {
    // `from pkg import sub` imports a submodule when there is one, else a name of the package.
    // `from . import users`: the module is `.`, the submodule `.users`.
    const sub = resolver.pythonModule(file.path, imp.module.endsWith(".") ? `${imp.module}${name}` : `${imp.module}.${name}`)[0];
    if (sub) return { path: sub, isModule: true };
    const module = resolver.pythonModule(file.path, imp.module)[0];
    return module ? { path: module, isModule: false } : null;
  }
  const target = resolver.resolve(file.path, file.language, imp)[0];
  return target ? { path: target, isModule: false } : null;
}

/**
 * A URL's parts as text: references to string constants of the file (or imported ones) resolved,
 * anything else a parameter (`\0`) or, where it starts the URL, an unknown prefix kept by name.
 */
function text(parts: readonly UrlPart[], file: FileFacts, repo: RepoFacts): string {
  return parts
    .map((part, i) => {
      if (typeof part === "string") return part;
      if ("dyn" in part) return "\u0000";
      const value = file.api.strings[part.ref] ?? importedString(file, part.ref, repo) ?? packagedString(file, part.ref, repo);
      if (value !== undefined) return value;
      return i === 0 ? UNKNOWN(part.ref) : "\u0000";
    })
    .join("");
}

/** A string constant of the file's package or of the class or package its qualifier names. */
function packagedString(file: FileFacts, name: string, repo: RepoFacts): string | undefined {
  const there = packageNamed(file, name, repo.constants);
  return there && (there.api.strings[name] ?? there.api.strings[lastSegment(name)]);
}

/** A string constant another file defines, imported here by name. */
function importedString(file: FileFacts, name: string, repo: RepoFacts): string | undefined {
  const imported = importedName(file, name, repo.resolver);
  return imported ? repo.files.get(imported.path)?.api.strings[imported.name] : undefined;
}

function joinPaths(a: string, b: string): string {
  if (a === "") return b;
  if (b === "") return a;
  return `${a.replace(/\/+$/, "")}/${b.replace(/^\/+/, "")}`;
}

function showUnknown(path: string): { shown: string; unknownPrefix?: string } {
  const match = /^\u0001([^\u0001]*)\u0001/.exec(path);
  const shown = path.replace(/\u0001([^\u0001]*)\u0001/g, "{$1}").replace(/\u0000/g, "{}");
  return match ? { shown, unknownPrefix: match[1]! } : { shown };
}

/** The path with a leading unknown prefix taken off and any other unknown a parameter. */
function unknownAsParameter(path: string): string {
  return path.replace(/^\u0001[^\u0001]*\u0001/, "").replace(/\u0001[^\u0001]*\u0001/g, "\u0000");
}
