import { existsSync, mkdirSync, realpathSync, rmSync, statSync } from "node:fs";
import { isAbsolute, join, parse, resolve, sep } from "node:path";
import { ContextSmithError } from "../core/errors.js";
import type { RunOptions } from "../core/types.js";
import { Engine, type EngineOptions, type IndexedFile, type QueryOptions } from "../engine.js";
import { apiCallersOf, apiHandlersOf, impactSites, type HopSite } from "../graph/api-hops.js";
import { linkApi, type ApiMap, type ApiRules, type DeclaredLink } from "../graph/api-links.js";
import { withApiNeighbours } from "../query/pack/api-neighbours.js";
import type { ApiHop, CallsResult, ImpactResult, SymbolLocation } from "../graph/types.js";
import { packEntries, packSources, withReleaseNotes, type PackSource } from "../query/pack/pack-ranking.js";
import { resolveRanking } from "../query/ranking-config.js";
import type { ContextResult, RankedFile } from "../query/types.js";
import { attachNotes } from "../notes/attach.js";
import type { NoteView } from "../notes/types.js";
import { resolveEmbeddingSettings, type KeepAlive } from "../core/embedding-settings.js";
import { Runtime, type ModelState } from "../runtime/runtime.js";
import { RepoChecks } from "./checks.js";
import { fuseRankings, fuseSearches } from "./fusion.js";
import { checkBranch, clone, commitsBehind, headCommit, parseSource, pull } from "./git-remote.js";
import { Registry, checkName, resolveDataDir, type RegistrySource } from "./registry.js";
import { addEdge, expandScope, expansionLabel, reach } from "./relations.js";
import type {
  Provenance,
  RegistryData,
  RepoEntry,
  RepoStatus,
  Scope,
  SyncResult,
  WorkspaceContextResult,
  WorkspaceRankResult,
  WorkspaceSearchHit,
} from "./types.js";

/** How often, by default, a repository is checked for changes before a query reads it. */
const CHECK_EVERY_MS = 60_000;

export interface WorkspaceOptions {
  /** The data folder (default: see {@link resolveDataDir}). */
  dataDir?: string;
  /** Where the repositories are registered (default: the data folder's `workspace.json`); its `dataDir` wins. */
  registry?: RegistrySource;
  /** The process's shared runtime; without it the workspace makes its own and closes it with itself. */
  runtime?: Runtime;
  /**
   * A query re-indexes what changed in a repository only when it was last checked longer ago than
   * this (default 60 s; 0: before every query), so a query over twenty repositories does not walk
   * twenty trees. `repo sync` always checks.
   */
  checkEveryMs?: number;
  /**
   * A due check of a repository that has an index runs in the background, one repository after
   * another, and the query answers from the index as it is (a server sets it: a re-embedding after
   * a model change does not hold every query up). Default false: the query waits for the check.
   */
  refreshInBackground?: boolean;
  /** How each repository is indexed (git history, embeddings, jobs). */
  engine?: Omit<EngineOptions, "runtime" | "indexDir">;
}

/** Options of a workspace query. */
export interface WorkspaceQueryOptions extends Pick<QueryOptions, "refresh" | "onProgress" | "signal" | "waitTimeoutMs"> {
  limit?: number;
}

/** What `models status` reports. */
export interface ModelsStatus {
  /** The configured provider and model, and how long a model stays loaded after its last use. */
  policy: { provider: string; model: string; keepAlive: KeepAlive };
  /** The models the process has made: loaded or not, operations in flight. */
  models: ModelState[];
  /** Each repository's vectors: the model that made them (null: none), and whether they are complete. */
  repos: Array<{ repo: string; vectorsOf: string | null; complete: boolean }>;
}

/** Where a symbol is defined, in which repository. */
export interface WorkspaceSymbol extends SymbolLocation {
  repo: string;
}

/** The dependency graph around one repository, or all of it. */
export interface RelationsView {
  repo: string | null;
  /** Direct edges `[from, to]`: "from depends on to". */
  edges: Array<[string, string]>;
  /** For one repository: what it depends on and what depends on it, with the fewest hops to each. */
  dependsOn?: Array<{ repo: string; hops: number }>;
  dependents?: Array<{ repo: string; hops: number }>;
}

/**
 * Many repositories as one: the registry of a data folder (repositories, groups, the dependency
 * graph between them) and one Engine per repository over one shared runtime. Queries run over a
 * scope (named repositories and groups, or all, expanded along the dependency graph): each
 * repository ranks with its own index, and the rankings are fused into one.
 */
export class Workspace {
  readonly dataDir: string;
  readonly registry: RegistrySource;
  readonly #runtime: Runtime;
  readonly #ownsRuntime: boolean;
  readonly #checks: RepoChecks;
  readonly #background: boolean;
  readonly #engineOptions: Omit<EngineOptions, "runtime" | "indexDir">;
  /** Engines by repository name, with the folder they were opened on (a re-added name gets a new one). */
  readonly #engines = new Map<string, { path: string; engine: Engine }>();

  constructor(options: WorkspaceOptions = {}) {
    this.registry = options.registry ?? new Registry(resolveDataDir(options.dataDir));
    this.dataDir = this.registry.dataDir;
    this.#ownsRuntime = options.runtime === undefined;
    this.#runtime = options.runtime ?? new Runtime();
    this.#checks = new RepoChecks(this.dataDir, options.checkEveryMs ?? CHECK_EVERY_MS);
    this.#background = options.refreshInBackground ?? false;
    this.#engineOptions = options.engine ?? {};
  }

  /** The registered repositories. */
  repos(): RepoEntry[] {
    return this.registry.read().repos;
  }

  /** The groups: name → members. */
  groups(): Record<string, string[]> {
    return this.registry.read().groups;
  }

  /** Each repository's state: its index, its checkout, how far behind its branch it is. */
  async status(): Promise<RepoStatus[]> {
    return Promise.all(
      this.repos().map(async (repo): Promise<RepoStatus> => {
        const missing = !isDirectory(repo.path);
        let index: ReturnType<Engine["status"]> = null;
        if (!missing) {
          try {
            index = this.#engine(repo).status();
          } catch {
            index = null; // a damaged index: the next sync rebuilds it
          }
        }
        const head = missing ? null : await headCommit(repo.path);
        return {
          ...repo,
          missing,
          indexedCommit: index?.gitHead ?? null,
          headCommit: head,
          behind: !missing && repo.kind === "remote" && repo.branch ? await commitsBehind(repo.path, repo.branch) : null,
          files: index?.totals.files ?? null,
          indexBytes: index?.indexBytes ?? null,
        };
      }),
    );
  }

  /**
   * Registers a repository: a folder of this machine (its index stays in it, shared with the
   * single-repository commands), or a URL or bare repository, cloned into the data folder. Then
   * indexes it, unless `index: false`. A failed clone leaves the registry as it was.
   * @throws ContextSmithError `ALREADY_EXISTS` for a name or a folder already registered
   */
  async addRepo(name: string, address: string, options: { branch?: string; cwd?: string; index?: boolean } & RunOptions = {}): Promise<RepoEntry> {
    checkName(name, "repository");
    const source = this.checkSource(address, options);
    const taken = (data: RegistryData): void => {
      if (data.repos.some((r) => r.name === name)) throw new ContextSmithError("ALREADY_EXISTS", `A repository named ${name} is already registered.`);
    };
    taken(this.registry.read());
    let entry: RepoEntry;
    if (source.kind === "local") {
      const path = realpathSync(source.path);
      entry = { name, kind: "local", path, addedAt: Date.now() };
      await this.registry.update((data) => {
        taken(data);
        const same = data.repos.find((r) => r.path === path);
        if (same) throw new ContextSmithError("ALREADY_EXISTS", `${path} is already registered as ${same.name}.`, { name: same.name });
        data.repos.push(entry);
      });
    } else {
      const dir = this.#clonePath(name);
      mkdirSync(join(this.dataDir, "clones"), { recursive: true });
      const branch = await clone(source.url, dir, options.branch, options.signal);
      entry = { name, kind: "remote", path: dir, url: source.url, branch, addedAt: Date.now() };
      try {
        await this.registry.update((data) => {
          taken(data);
          data.repos.push(entry);
        });
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
    if (options.index ?? true) {
      try {
        await this.#engine(entry).index(options);
      } catch (error) {
        const err = ContextSmithError.from(error, "INTERNAL");
        throw new ContextSmithError(err.code, `${name} is registered, but indexing it failed: ${err.message} Run \`ctxsmith repo sync ${name}\` to try again.`, err.data);
      }
      this.#checks.checked(name);
    }
    return entry;
  }

  /**
   * What `addRepo` would add from `address`: a folder of this machine (it must exist, and be a
   * project's folder, not the root, /proc or the data folder) or a git URL. What a server checks
   * before it queues the add. @throws ContextSmithError `INVALID_ARGUMENT`, `PATH_NOT_FOUND`, `NOT_A_DIRECTORY`
   */
  checkSource(address: string, options: { branch?: string; cwd?: string; absolute?: boolean } = {}): ReturnType<typeof parseSource> {
    const source = parseSource(address, options.cwd ?? process.cwd());
    if (source.kind === "local" && options.absolute && !isAbsolute(address.trim())) {
      throw new ContextSmithError("INVALID_ARGUMENT", `"${address}": give the folder as an absolute path (the server's working folder is not yours).`);
    }
    if (source.kind === "remote") {
      if (options.branch !== undefined) checkBranch(options.branch);
      return source;
    }
    if (options.branch) throw new ContextSmithError("INVALID_ARGUMENT", "--branch is for cloned repositories; a local folder is used as it is checked out.");
    if (!existsSync(source.path)) throw new ContextSmithError("PATH_NOT_FOUND", `No such directory: ${source.path}`);
    if (!isDirectory(source.path)) throw new ContextSmithError("NOT_A_DIRECTORY", `Not a directory: ${source.path}`);
    refuseSystemFolder(realpathSync(source.path), this.dataDir);
    return source;
  }

  /**
   * Unregisters a repository, drops it from its groups and relations, and deletes what the
   * workspace made for it: a clone and its index. A local folder and its index are never touched.
   */
  async removeRepo(name: string): Promise<RepoEntry> {
    const entry = await this.registry.update((data) => {
      const found = data.repos.find((r) => r.name === name);
      if (!found) throw this.#unknown(name, data);
      data.repos = data.repos.filter((r) => r.name !== name);
      for (const group of Object.keys(data.groups)) data.groups[group] = data.groups[group]!.filter((m) => m !== name);
      data.relations = data.relations.filter(([a, b]) => a !== name && b !== name);
      if (data.api) data.api = withoutRepo(data.api, name);
      return found;
    });
    const open = this.#engines.get(name);
    this.#engines.delete(name);
    await open?.engine.close();
    this.#checks.forget(name);
    if (entry.kind === "remote") {
      rmSync(this.#indexPath(name), { recursive: true, force: true });
      rmSync(this.#clonePath(name), { recursive: true, force: true });
    }
    return entry;
  }

  /**
   * Brings repositories up to date (all when `names` is empty): a clone fetches its branch and
   * moves to its head; then the index is updated incrementally (only files whose content changed
   * are read again). A repository that fails is reported and keeps its previous index.
   */
  async sync(names: readonly string[] = [], options: RunOptions = {}): Promise<SyncResult[]> {
    const data = this.registry.read();
    const repos = names.length === 0 ? data.repos : names.map((n) => data.repos.find((r) => r.name === n) ?? throwError(this.#unknown(n, data)));
    const results: SyncResult[] = [];
    for (const repo of repos) {
      const t0 = Date.now();
      try {
        let moved: { from: string | null; to: string } | null = null;
        if (repo.kind === "remote") moved = await pull(repo.path, repo.branch!, options.signal);
        else if (!isDirectory(repo.path)) throw new ContextSmithError("PATH_NOT_FOUND", `The folder of ${repo.name} is gone: ${repo.path}`);
        const stats = await this.#engine(repo).index(options);
        this.#checks.checked(repo.name);
        results.push({ repo: repo.name, ok: true, ...(moved ?? {}), parsed: stats.files.parsed, removed: stats.files.removed, ms: Date.now() - t0 });
      } catch (error) {
        const err = ContextSmithError.from(error, "INTERNAL");
        if (err.code === "ABORTED") throw err;
        results.push({ repo: repo.name, ok: false, ms: Date.now() - t0, error: { code: err.code, message: err.message } });
      }
    }
    return results;
  }

  /** Creates a group of repositories. @throws ContextSmithError `ALREADY_EXISTS`, `NOT_FOUND` */
  createGroup(name: string, repos: readonly string[]): Promise<string[]> {
    checkName(name, "group");
    return this.registry.update((data) => {
      if (Object.hasOwn(data.groups, name)) throw new ContextSmithError("ALREADY_EXISTS", `A group named ${name} exists already: add to it with \`group add\`.`);
      repos.forEach((r) => this.#known(r, data));
      data.groups[name] = [...new Set(repos)];
      return data.groups[name];
    });
  }

  /** Adds repositories to a group. */
  addToGroup(name: string, repos: readonly string[]): Promise<string[]> {
    return this.registry.update((data) => {
      const members = this.#group(name, data);
      repos.forEach((r) => this.#known(r, data));
      data.groups[name] = [...new Set([...members, ...repos])];
      return data.groups[name];
    });
  }

  /** Takes repositories out of a group (they stay registered). */
  removeFromGroup(name: string, repos: readonly string[]): Promise<string[]> {
    return this.registry.update((data) => {
      const members = this.#group(name, data);
      data.groups[name] = members.filter((m) => !repos.includes(m));
      return data.groups[name];
    });
  }

  /** Deletes a group; its repositories stay. */
  deleteGroup(name: string): Promise<void> {
    return this.registry.update((data) => {
      this.#group(name, data);
      delete data.groups[name];
    });
  }

  /** Records "from depends on to". @throws ContextSmithError `DEPENDENCY_CYCLE` naming the cycle */
  addRelation(from: string, to: string): Promise<void> {
    return this.registry.update((data) => {
      this.#known(from, data);
      this.#known(to, data);
      data.relations = addEdge(data.relations, from, to);
    });
  }

  /** Forgets "from depends on to". @throws ContextSmithError `NOT_FOUND` when there is no such relation */
  removeRelation(from: string, to: string): Promise<void> {
    return this.registry.update((data) => {
      this.#known(from, data);
      this.#known(to, data);
      const before = data.relations.length;
      data.relations = data.relations.filter(([a, b]) => !(a === from && b === to));
      if (data.relations.length === before) throw new ContextSmithError("NOT_FOUND", `${from} does not depend on ${to}: see \`ctxsmith relation show\`.`);
    });
  }

  /** The dependency graph: all of it, or around one repository (direct and transitive, both ways). */
  relations(repo?: string): RelationsView {
    const data = this.registry.read();
    if (repo === undefined) return { repo: null, edges: data.relations };
    this.#known(repo, data);
    const list = (hops: Map<string, number>) => [...hops].map(([r, h]) => ({ repo: r, hops: h })).sort((a, b) => a.hops - b.hops || a.repo.localeCompare(b.repo));
    return {
      repo,
      edges: data.relations.filter(([a, b]) => a === repo || b === repo),
      dependsOn: list(reach(data.relations, repo, "upstream")),
      dependents: list(reach(data.relations, repo, "downstream")),
    };
  }

  /**
   * The repositories a scope names, primary first, then those expansion reaches. No repository
   * or group named means all of them.
   */
  resolveScope(scope: Scope = {}, data: RegistryData = this.registry.read()): Provenance[] {
    if (data.repos.length === 0) throw new ContextSmithError("NOT_FOUND", "The workspace has no repository yet: add one with `ctxsmith repo add NAME PATH|URL`.");
    const depth = scope.expandDepth ?? 1;
    if (!Number.isInteger(depth) || depth < 0) throw new ContextSmithError("INVALID_ARGUMENT", `The expansion depth must be a whole number ≥ 0, not ${depth}.`);
    const named = [...(scope.repos ?? [])];
    for (const group of scope.groups ?? []) named.push(...this.#group(group, data));
    named.forEach((r) => this.#known(r, data));
    const primary = scope.all || (scope.repos === undefined && scope.groups === undefined) ? data.repos.map((r) => r.name) : [...new Set(named)];
    if (primary.length === 0) throw new ContextSmithError("NOT_FOUND", "The scope names no repository (no repository given, or only empty groups).");
    return expandScope(data.relations, primary, scope.expand, depth);
  }

  /** Ranks files across the scope's repositories for a task, best first, each with its provenance. */
  async rank(task: string, scope: Scope = {}, options: WorkspaceQueryOptions = {}): Promise<WorkspaceRankResult> {
    const { engines, scope: provenance, notices } = await this.#open(scope, options);
    const rankings = await Promise.all(
      engines.map(async ({ provenance: p, engine }) => {
        const result = await engine.rank(task, { refresh: false, signal: options.signal });
        notices.push(...(result.notices ?? []).map((n) => `${p.repo}: ${n}`));
        return { provenance: p, files: result.files };
      }),
    );
    const files = fuseRankings(rankings);
    return { files: options.limit === undefined ? files : files.slice(0, options.limit), scope: provenance, ...withNotices(notices) };
  }

  /** Functions and classes across the scope's repositories, best first. */
  async search(query: string, scope: Scope = {}, options: WorkspaceQueryOptions = {}): Promise<{ results: WorkspaceSearchHit[]; scope: Provenance[]; notices?: string[] }> {
    const { engines, scope: provenance, notices } = await this.#open(scope, options);
    const limit = options.limit ?? 20;
    const results = await Promise.all(engines.map(async ({ provenance: p, engine }) => ({ provenance: p, hits: await engine.search(query, { refresh: false, limit, signal: options.signal }) })));
    return { results: fuseSearches(results, limit), scope: provenance, ...withNotices(notices) };
  }

  /**
   * The code an agent should read for `task` across the scope's repositories, packed into one
   * budget (default 4,000 tokens), never over it. Each piece is headed with its repository, file,
   * lines, the scopes it shows and why it was chosen.
   */
  async context(task: string, scope: Scope = {}, options: WorkspaceQueryOptions & { budget?: number } = {}): Promise<WorkspaceContextResult> {
    const budget = options.budget ?? 4000;
    if (!Number.isInteger(budget) || budget < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The budget must be a positive whole number of tokens, not ${budget}.`);
    const config = resolveRanking(this.#engineOptions.ranking);
    const counter = this.#runtime.tokenCounter(config.pack.encoding);
    const { engines, scope: provenance, notices } = await this.#open(scope, options);
    const ranked: Array<{ provenance: Provenance; files: RankedFile[]; source: PackSource }> = [];
    // Each engine keeps its index open until the pack is made: the rankings are nested, innermost packs.
    const within = async (i: number): Promise<WorkspaceContextResult> => {
      if (i < engines.length) {
        const { provenance: p, engine } = engines[i]!;
        return engine.rankToPack(task, { refresh: false, signal: options.signal }, (files, source, found) => {
          notices.push(...found.map((n) => `${p.repo}: ${n}`));
          ranked.push({ provenance: p, files, source });
          return within(i + 1);
        });
      }
      const sources = new Map(ranked.map((r) => [r.provenance.repo, r.source]));
      const fused = fuseRankings(ranked);
      const repack = async (room: number): Promise<ContextResult> => {
        const entries = packEntries(fused, room, config, (file) => ({ file, source: sources.get(file.repo)!, repo: file.repo, note: expansionLabel(file) ?? undefined }));
        // A task about one side of an HTTP contract sees the other side, in any repository of the scope.
        return withRepoPaths(await packSources(withReleaseNotes(withApiNeighbours(entries, map, (repo) => sources.get(repo)), config), room, counter, config));
      };
      // Notes are matched to the spans shown by repository and path: both read `repo: path` meanwhile.
      const packed = await attachNotes(await repack(budget), notes, repack, counter);
      const spans = packed.spans.map((s) => ({ ...s, repo: s.repo!, path: s.path.slice(s.repo!.length + 2) }));
      // The text shows `repo: path`; the contract's paths are repository-relative, with `repo` beside them.
      const shownNotes = (packed.notes ?? []).map((n) => withoutRepoPath(n as NoteView & { repo: string }));
      return { ...packed, repos: packed.repos ?? [], spans, notes: shownNotes, scope: provenance, ...withNotices(notices) };
    };
    // A repository whose notes cannot be read loses its notes, not its code.
    const notesOf = async ({ provenance: p, engine }: { provenance: Provenance; engine: Engine }): Promise<NoteView[]> => {
      try {
        return (await engine.notes({}, { refresh: false })).map((n) => withRepoPath(n, p.repo));
      } catch (error) {
        notices.push(`${p.repo}: its notes are left out (${ContextSmithError.from(error, "INTERNAL").message})`);
        return [];
      }
    };
    const notes = (await Promise.all(engines.map(notesOf))).flat();
    const map = await linkedApi(engines, this.apiRules());
    return within(0);
  }

  /** Where `name` is defined, in every repository of the scope (or in `repo` alone). */
  async symbol(name: string, options: WorkspaceQueryOptions & { repo?: string } = {}): Promise<{ matches: WorkspaceSymbol[]; suggestions: string[] }> {
    const { engines } = await this.#open(options.repo ? { repos: [options.repo] } : {}, options);
    const found = await Promise.all(engines.map(async ({ provenance: p, engine }) => ({ repo: p.repo, lookup: await engine.symbol(name, { refresh: false }) })));
    return {
      matches: found.flatMap(({ repo, lookup }) => lookup.matches.map((m) => ({ ...m, repo }))),
      suggestions: [...new Set(found.flatMap(({ lookup }) => lookup.suggestions))].slice(0, 10),
    };
  }

  /**
   * Callers or callees of `name` in every repository of the scope (or in `repo` alone), one hop;
   * with, across the API contract of the whole workspace, the requests that reach it as a route
   * handler (callers) or the handlers its requests reach (callees).
   */
  async calls(name: string, direction: "callers" | "callees", options: WorkspaceQueryOptions & { repo?: string } = {}): Promise<Array<CallsResult & { repo: string }>> {
    const { engines } = await this.#open(options.repo ? { repos: [options.repo] } : {}, options);
    const results = await Promise.all(engines.map(async ({ provenance: p, engine }) => ({ ...(await engine[direction](name, { refresh: false, api: false })), repo: p.repo })));
    const found = results.filter((r) => r.targets.length > 0);
    return this.#acrossApi(found, (r) => r.targets, direction === "callers" ? apiCallersOf : apiHandlersOf, options);
  }

  /** Everything that calls `name`, transitively to `depth`, in every repository of the scope (or in `repo` alone); and the requests, anywhere in the workspace, that reach it or a caller as a route handler. */
  async impact(name: string, depth: number, options: WorkspaceQueryOptions & { repo?: string } = {}): Promise<Array<ImpactResult & { repo: string }>> {
    const { engines } = await this.#open(options.repo ? { repos: [options.repo] } : {}, options);
    const results = await Promise.all(engines.map(async ({ provenance: p, engine }) => ({ ...(await engine.impact(name, { refresh: false, depth, api: false })), repo: p.repo })));
    return this.#acrossApi(results.filter((r) => r.targets.length > 0), impactSites, apiCallersOf, options);
  }

  /** Adds to each result its hops across the API map of the whole workspace. */
  async #acrossApi<T extends { repo: string; api?: ApiHop[] }>(results: T[], sites: (r: T) => ReadonlyArray<{ path: string; startLine: number; endLine: number }>, hops: (map: ApiMap, sites: readonly HopSite[]) => ApiHop[], options: WorkspaceQueryOptions): Promise<T[]> {
    if (results.length === 0) return results;
    const map = await this.apiMap({}, options);
    if (map.calls.length === 0) return results;
    return results.map((r) => {
      const found = hops(map, sites(r).map((s) => ({ repo: r.repo, path: s.path, startLine: s.startLine, endLine: s.endLine })));
      return found.length > 0 ? { ...r, api: found } : r;
    });
  }

  /** The API rules declared for the workspace (prefixes, links). */
  apiRules(): ApiRules {
    return this.registry.read().api ?? {};
  }

  /** Declares the prefix a repository's routes are reached under (a gateway the code does not show), or with null removes it. */
  setApiPrefix(repo: string, prefix: string | null): Promise<ApiRules> {
    if (prefix !== null && !/^\/[^\s?#]*$/.test(prefix)) throw new ContextSmithError("INVALID_ARGUMENT", `An API prefix is a path starting with /, not ${JSON.stringify(prefix)}.`);
    return this.registry.update((data) => {
      this.#known(repo, data);
      const prefixes = { ...(data.api?.prefixes ?? {}) };
      if (prefix === null) {
        if (!(repo in prefixes)) throw new ContextSmithError("NOT_FOUND", `${repo} has no declared API prefix.`);
        delete prefixes[repo];
      } else prefixes[repo] = prefix;
      data.api = { ...data.api, prefixes };
      return data.api;
    });
  }

  /** Declares that requests of `link.from` reach the route `link.to` (or, with `remove`, forgets it). */
  declareApiLink(link: DeclaredLink, remove = false): Promise<ApiRules> {
    return this.registry.update((data) => {
      this.#known(link.from.repo, data);
      this.#known(link.to.repo, data);
      const same = (l: DeclaredLink): boolean => JSON.stringify(l) === JSON.stringify(link);
      const links = data.api?.links ?? [];
      if (remove && !links.some(same)) throw new ContextSmithError("NOT_FOUND", "No such declared API link: see `ctxsmith api rules`.");
      data.api = { ...data.api, links: remove ? links.filter((l) => !same(l)) : [...links.filter((l) => !same(l)), link] };
      return data.api;
    });
  }

  /**
   * The API contract map of the scope: each repository's routes and requests, and each request
   * matched to the route handlers that serve it in any repository of the scope (or why none does),
   * with the workspace's declared rules honoured.
   */
  async apiMap(scope: Scope = {}, options: WorkspaceQueryOptions = {}): Promise<ApiMap & { scope: Provenance[]; notices?: string[] }> {
    const { engines, scope: provenance, notices } = await this.#open(scope, options);
    return { ...(await linkedApi(engines, this.apiRules())), scope: provenance, ...withNotices(notices) };
  }

  /**
   * One repository's engine, its index brought up to date as any query of the workspace would:
   * for work that reads one repository through the whole Engine API (a review). The workspace owns
   * it: it stays open until the workspace closes.
   */
  async engine(repo: string, options: WorkspaceQueryOptions = {}): Promise<{ engine: Engine; notices: string[] }> {
    const { engines, notices } = await this.#open({ repos: [repo] }, options);
    return { engine: engines[0]!.engine, notices };
  }

  /** A file of one repository's index, as indexed, with its outline (see {@link Engine.file}). */
  async file(repo: string, path: string, options: WorkspaceQueryOptions = {}): Promise<IndexedFile & { repo: string }> {
    const { engines } = await this.#open({ repos: [repo] }, options);
    return { ...(await engines[0]!.engine.file(path, { refresh: false })), repo };
  }

  /** Files of one repository's index at once (null for each it cannot show: see {@link Engine.files}). */
  async files(repo: string, paths: readonly string[], options: WorkspaceQueryOptions = {}): Promise<Map<string, IndexedFile | null>> {
    const { engines } = await this.#open({ repos: [repo] }, options);
    return engines[0]!.engine.files(paths, { refresh: false });
  }

  /** The notes of one repository, all or those pinned to a file or a symbol. */
  async notes(repo: string, filter: { path?: string; symbol?: string } = {}, options: WorkspaceQueryOptions = {}): Promise<NoteView[]> {
    const { engines } = await this.#open({ repos: [repo] }, options);
    return engines[0]!.engine.notes(filter, { refresh: false });
  }

  /**
   * The models of this process (loaded or not, operations in flight), the configured policy, and
   * each repository's vectors: which model made them, complete or not.
   */
  models(): ModelsStatus {
    const settings = resolveEmbeddingSettings(this.#engineOptions.embedding);
    const repos = this.repos().map((repo) => {
      let status: ReturnType<Engine["status"]> = null;
      try {
        status = isDirectory(repo.path) ? this.#engine(repo).status() : null;
      } catch {
        status = null; // a damaged index has no vectors to speak of
      }
      return { repo: repo.name, vectorsOf: status?.semanticModel ?? null, complete: status?.semantic ?? false };
    });
    return { policy: { provider: settings.provider, model: settings.model, keepAlive: settings.keepAlive }, models: this.#runtime.models(), repos };
  }

  /** Releases the models now. @throws ContextSmithError `BUSY` while an operation runs on one */
  unload(): Promise<ModelState[]> {
    return this.#runtime.unload();
  }

  /** Counts tokens as `context` does. */
  countTokens(text: string): Promise<number> {
    return this.#runtime.tokenCounter(resolveRanking(this.#engineOptions.ranking).pack.encoding).count(text);
  }

  /** Closes every engine (and the runtime, when it is the workspace's own). */
  async close(): Promise<void> {
    await this.#checks.close();
    const engines = [...this.#engines.values()];
    this.#engines.clear();
    await Promise.all(engines.map((e) => e.engine.close()));
    if (this.#ownsRuntime) await this.#runtime.close();
  }

  /**
   * The engines of a scope, their indexes brought up to date where due (see
   * {@link WorkspaceOptions.checkEveryMs}). A repository that cannot answer (its folder gone, no
   * index with `refresh: false`) is left out with a notice; the query fails only when none can.
   */
  async #open(scope: Scope, options: WorkspaceQueryOptions): Promise<{ engines: Array<{ provenance: Provenance; engine: Engine }>; scope: Provenance[]; notices: string[] }> {
    const data = this.registry.read();
    const provenance = this.resolveScope(scope, data);
    const byName = new Map(data.repos.map((r) => [r.name, r]));
    // Repositories removed by another process since they were opened: let their indexes go.
    for (const [name, open] of [...this.#engines]) {
      if (byName.get(name)?.path !== open.path) {
        this.#engines.delete(name);
        this.#checks.forget(name);
        await open.engine.close();
      }
    }
    const engines: Array<{ provenance: Provenance; engine: Engine }> = [];
    const notices: string[] = [];
    let firstError: ContextSmithError | null = null;
    for (const p of provenance) {
      const repo = byName.get(p.repo)!;
      try {
        if (!isDirectory(repo.path)) throw new ContextSmithError("PATH_NOT_FOUND", `its folder is gone (${repo.path})`);
        const engine = this.#engine(repo);
        // One repository at a time: index runs of many repositories at once would hold as many lexical builders.
        const indexed = engine.status() !== null;
        if (this.#checks.due(repo.name, indexed, options.refresh)) {
          // A server's query never runs an index run itself: a cold index of a large folder would hold every query up.
          if (this.#background) this.#checks.later(repo.name, (run) => engine.index(run), { onProgress: options.onProgress });
          else {
            try {
              await engine.index({ onProgress: options.onProgress, signal: options.signal, waitTimeoutMs: options.waitTimeoutMs });
              this.#checks.checked(repo.name);
            } catch (error) {
              // A read-only index (a restored CI cache, a read-only checkout) still answers.
              const err = ContextSmithError.from(error, "INTERNAL");
              if (!(indexed && err.code === "IO_ERROR")) throw error;
              this.#checks.checked(repo.name); // not again before the interval: it would fail the same way
              notices.push(`${p.repo}: could not re-index (${err.message}); answering from the index as it is`);
            }
          }
        } else if (!indexed && !this.#checks.pending(repo.name)) throw new ContextSmithError("NO_INDEX", "it has no index yet (run `ctxsmith repo sync`)");
        if (!indexed && this.#background) throw new ContextSmithError("NO_INDEX", "it is being indexed in the background: it joins the answers once its index is ready");
        const failed = this.#checks.failure(repo.name);
        if (failed) notices.push(`${p.repo}: its last re-index failed (${failed}); answering from the index as it is`);
        else if (this.#checks.pending(repo.name)) notices.push(`${p.repo}: re-indexing in the background; answering from the index as it is`);
        engines.push({ provenance: p, engine });
      } catch (error) {
        const err = ContextSmithError.from(error, "INTERNAL");
        if (err.code === "ABORTED" || err.code === "INTERNAL") throw err;
        firstError ??= err;
        notices.push(`${p.repo} left out: ${err.message}`);
      }
    }
    if (engines.length === 0) throw firstError!;
    return { engines, scope: provenance.filter((p) => engines.some((e) => e.provenance.repo === p.repo)), notices };
  }

  /** Waits for the background checks queued so far (tests; a server closing). */
  settled(): Promise<void> {
    return this.#checks.settled();
  }

  #engine(repo: RepoEntry): Engine {
    const open = this.#engines.get(repo.name);
    if (open && open.path === repo.path) return open.engine;
    // A name registered again for another folder: the old engine goes (no query can be using it:
    // every query opens its engines through #open, which closed it already).
    if (open) void open.engine.close();
    const engine = new Engine(repo.path, {
      ...this.#engineOptions,
      runtime: this.#runtime,
      ...(repo.kind === "remote" ? { indexDir: this.#indexPath(repo.name) } : {}),
    });
    this.#engines.set(repo.name, { path: repo.path, engine });
    return engine;
  }

  #clonePath(name: string): string {
    return join(this.dataDir, "clones", name);
  }

  #indexPath(name: string): string {
    return join(this.dataDir, "indexes", name);
  }

  #known(name: string, data: RegistryData): void {
    if (!data.repos.some((r) => r.name === name)) throw this.#unknown(name, data);
  }

  #unknown(name: string, data: RegistryData): ContextSmithError {
    const names = data.repos.map((r) => r.name);
    return new ContextSmithError("NOT_FOUND", `No repository named ${name} in the workspace${names.length ? ` (there are: ${names.join(", ")})` : ""}.`);
  }

  #group(name: string, data: RegistryData): string[] {
    // Own groups only: a group named `constructor` is not Object.prototype's.
    const members = Object.hasOwn(data.groups, name) ? data.groups[name] : undefined;
    if (!members) throw new ContextSmithError("NOT_FOUND", `No group named ${name}${Object.keys(data.groups).length ? ` (there are: ${Object.keys(data.groups).join(", ")})` : ""}.`);
    return members;
  }
}

/** A packed context whose spans read `repo: path`, as notes are matched to them. */
function withRepoPaths(result: ContextResult): ContextResult {
  return { ...result, spans: result.spans.map((s) => ({ ...s, path: `${s.repo}: ${s.path}` })) };
}

/** A note of a repository, its paths read `repo: path` (as the workspace context shows them). */
function withRepoPath(note: NoteView, repo: string): NoteView & { repo: string } {
  const path = (p: string): string => `${repo}: ${p}`;
  return { ...note, repo, target: { ...note.target, path: path(note.target.path) }, location: note.location && { ...note.location, path: path(note.location.path) } };
}

/** The note as its repository has it: the `repo: ` prefix taken off its paths. */
function withoutRepoPath(note: NoteView & { repo: string }): NoteView & { repo: string } {
  const path = (p: string): string => p.slice(note.repo.length + 2);
  return { ...note, target: { ...note.target, path: path(note.target.path) }, location: note.location && { ...note.location, path: path(note.location.path) } };
}

/**
 * A repository is a project folder: not the file system's root, not a pseudo file system (/proc,
 * /sys, /dev: reading them can hang or never end), not the workspace's own data folder.
 */
function refuseSystemFolder(path: string, dataDir: string): void {
  const inside = (dir: string): boolean => path === dir || path.startsWith(`${dir}${sep}`);
  const reason =
    path === parse(path).root
      ? "the root of the file system"
      : ["/proc", "/sys", "/dev"].some(inside)
        ? "a system folder"
        : inside(resolve(dataDir)) || resolve(dataDir).startsWith(`${path}${sep}`)
          ? "the workspace's data folder, or holds it"
          : null;
  if (reason) throw new ContextSmithError("INVALID_ARGUMENT", `${path} is ${reason}: register a project's folder.`);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function throwError(error: Error): never {
  throw error;
}

function withNotices(notices: string[]): { notices?: string[] } {
  return notices.length > 0 ? { notices } : {};
}

/** The API map of some open repositories: each one's routes and requests, linked across them under the declared rules. */
async function linkedApi(engines: ReadonlyArray<{ provenance: Provenance; engine: Engine }>, rules: ApiRules): Promise<ApiMap> {
  return linkApi(await Promise.all(engines.map(async ({ provenance: p, engine }) => ({ repo: p.repo, ...(await engine.api({ refresh: false })) }))), rules);
}

/** The rules without what names a repository that is gone. */
function withoutRepo(rules: ApiRules, repo: string): ApiRules {
  const prefixes = Object.fromEntries(Object.entries(rules.prefixes ?? {}).filter(([r]) => r !== repo));
  return { prefixes, links: (rules.links ?? []).filter((l) => l.from.repo !== repo && l.to.repo !== repo) };
}
