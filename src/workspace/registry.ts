import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod/mini";
import englishLocale from "zod/v4/locales/en.js";
import { ContextSmithError } from "../core/errors.js";
import { acquireWriteLock } from "../runtime/lock.js";
import { addEdge } from "./relations.js";
import type { RegistryData, RepoEntry } from "./types.js";

const REGISTRY_FILE = "workspace.json";
/** How long a registry change waits for another process's change (they take milliseconds). */
const LOCK_WAIT_MS = 30_000;

/**
 * The workspace's data folder: `--data-dir`, else `CTXSMITH_DATA_DIR`, else the XDG data home
 * (`$XDG_DATA_HOME/contextsmith`, `~/.local/share/contextsmith`).
 */
export function resolveDataDir(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return resolve(explicit);
  if (env.CTXSMITH_DATA_DIR) return resolve(env.CTXSMITH_DATA_DIR);
  const xdg = env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith("/") ? env.XDG_DATA_HOME : join(homedir(), ".local", "share");
  return join(xdg, "contextsmith");
}

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** @throws ContextSmithError `INVALID_ARGUMENT` unless `name` is 1–64 of `[a-z0-9._-]`, starting with a letter or digit. */
export function checkName(name: string, what: "repository" | "group"): string {
  if (!NAME.test(name)) {
    throw new ContextSmithError("INVALID_ARGUMENT", `"${name}" is not a valid ${what} name: use 1–64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit.`);
  }
  return name;
}

// zod/mini: the same checks, a fraction of the code the CLI loads at start-up (the full zod is
// loaded only by the servers, through the MCP SDK).
const name = z.string().check(z.regex(NAME));
const startsWithSlash = (max?: number) => z.string().check(z.startsWith("/"), ...(max === undefined ? [] : [z.maxLength(max)]));
const text = (max: number) => z.string().check(z.maxLength(max));
const schema = z.object({
  version: z.literal(1),
  repos: z.array(
    z.object({
      name,
      kind: z.enum(["local", "remote"]),
      path: startsWithSlash(),
      url: z.optional(z.string()),
      branch: z.optional(z.string()),
      addedAt: z.number(),
    }),
  ),
  groups: z.record(name, z.array(name)),
  relations: z.array(z.tuple([name, name])),
  api: z.optional(
    z.object({
      prefixes: z.optional(z.record(name, startsWithSlash(512))),
      links: z.optional(
        z
          .array(
            z.object({
              from: z.object({ repo: name, method: text(16), url: text(2048) }),
              to: z.object({ repo: name, method: text(16), path: text(2048) }),
            }),
          )
          .check(z.maxLength(10_000)),
      ),
    }),
  ),
});

const english = englishLocale().localeError;

/** `value` as a registry (keys it does not know dropped), or where it is not one and why. */
function checkShape(value: unknown): { data: RegistryData } | { problem: string } {
  const parsed = schema.safeParse(value, { error: english });
  if (parsed.success) return { data: parsed.data as RegistryData };
  const issue = parsed.error.issues[0]!;
  return { problem: `${issue.path.join(".") || "top level"}: ${issue.message}` };
}

/** What makes a well-formed registry wrong (a hand edit, a bug), or null. */
function inconsistency(data: RegistryData): string | null {
  const names = new Set<string>();
  for (const repo of data.repos) {
    if (names.has(repo.name)) return `the name ${repo.name} is registered twice`;
    names.add(repo.name);
  }
  for (const [group, members] of Object.entries(data.groups)) {
    const stranger = members.find((m) => !names.has(m));
    if (stranger) return `group ${group} names ${stranger}, which is not registered`;
  }
  for (const repo of Object.keys(data.api?.prefixes ?? {})) if (!names.has(repo)) return `the API prefix of ${repo} names a repository that is not registered`;
  for (const link of data.api?.links ?? []) {
    const stranger = [link.from.repo, link.to.repo].find((r) => !names.has(r));
    if (stranger) return `a declared API link names ${stranger}, which is not registered`;
  }
  let edges: Array<[string, string]> = [];
  for (const [from, to] of data.relations) {
    if (!names.has(from) || !names.has(to)) return `the relation ${from} → ${to} names a repository that is not registered`;
    try {
      edges = addEdge(edges, from, to);
    } catch (error) {
      return `the relations have a cycle: ${(error as Error).message}`;
    }
  }
  return null;
}

/** Where a workspace keeps its repositories, groups and relations. */
export interface RegistrySource {
  /** The folder of what the workspace makes: clones, their indexes, the freshness checks. */
  readonly dataDir: string;
  read(): RegistryData;
  update<T>(change: (data: RegistryData) => T): Promise<T>;
}

/**
 * A workspace of one local repository, as `serve --http` without `--workspace` serves it: nothing
 * is written, and every change is refused with what to run instead.
 */
export class SingleRepoRegistry implements RegistrySource {
  readonly #data: RegistryData;

  constructor(
    readonly dataDir: string,
    repo: RepoEntry,
  ) {
    this.#data = { version: 1, repos: [repo], groups: {}, relations: [] };
  }

  read(): RegistryData {
    return structuredClone(this.#data);
  }

  update<T>(): Promise<T> {
    return Promise.reject(SingleRepoRegistry.refusal());
  }

  /** What a change of a one-repository workspace is refused with. */
  static refusal(): ContextSmithError {
    return new ContextSmithError("INVALID_ARGUMENT", "This server serves one repository: start it with `--workspace` to add, remove, group or relate repositories.");
  }
}

const empty = (): RegistryData => ({ version: 1, repos: [], groups: {}, relations: [] });

/**
 * The registry of a workspace: one JSON file in the data folder. Every change reads, changes and
 * writes it under a lock file (two processes at once each see the other's change), and is written
 * to a temporary file, flushed and renamed over the old one, so a crash leaves the old registry or
 * the new one, never half of one. A registry that cannot be read is reported, never replaced.
 */
export class Registry implements RegistrySource {
  readonly file: string;

  constructor(readonly dataDir: string) {
    this.file = join(dataDir, REGISTRY_FILE);
  }

  /** The registry as it is on disk (empty when there is none yet). @throws ContextSmithError `REGISTRY_DAMAGED` */
  read(): RegistryData {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return empty();
      throw ContextSmithError.from(error, "IO_ERROR");
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.#damaged((error as Error).message);
    }
    const shape = checkShape(value);
    if ("problem" in shape) throw this.#damaged(shape.problem);
    const data = shape.data;
    const problem = inconsistency(data);
    if (problem) throw this.#damaged(problem);
    return data;
  }

  /**
   * Applies `change` to the registry and writes it, atomically and under the registry lock; a
   * change that throws writes nothing. Returns what `change` returns.
   */
  async update<T>(change: (data: RegistryData) => T): Promise<T> {
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const lock = await acquireWriteLock(this.dataDir, {
      file: "registry.lock",
      holder: "workspace change",
      wait: true,
      waitTimeoutMs: LOCK_WAIT_MS,
    });
    try {
      const data = this.read();
      const result = change(data);
      // What would not read back is refused here, before it is written: the registry stays as it was.
      const shape = checkShape(data);
      const problem = "problem" in shape ? shape.problem : inconsistency(data);
      if (problem) throw new ContextSmithError("INVALID_ARGUMENT", `The change was refused, nothing was written: ${problem}.`);
      this.#write(data);
      return result;
    } finally {
      lock.release();
    }
  }

  #write(data: RegistryData): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      // Only its owner reads it: it names every repository and where it is cloned from.
      const fd = openSync(tmp, "w", 0o600);
      try {
        writeSync(fd, `${JSON.stringify(data, null, 2)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
    } catch (error) {
      rmSync(tmp, { force: true });
      throw ContextSmithError.from(error, "IO_ERROR");
    }
  }

  #damaged(why: string): ContextSmithError {
    return new ContextSmithError(
      "REGISTRY_DAMAGED",
      `The workspace registry ${this.file} is damaged (${why}). Nothing was changed: repair the file, or move it away to start an empty workspace.`,
    );
  }
}
