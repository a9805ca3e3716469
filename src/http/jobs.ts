import { randomUUID } from "node:crypto";
import { ContextSmithError } from "../core/errors.js";
import type { ProgressEvent } from "../core/types.js";

export type JobKind = "add" | "sync";
export type JobState = "queued" | "running" | "done" | "failed";

/** What a client sees of a job. */
export interface JobView {
  id: string;
  kind: JobKind;
  repos: string[];
  state: JobState;
  /** The latest progress: a stage, a line to show, and counts where the stage has them. */
  progress: { stage: string; message: string; done?: number; total?: number } | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  result?: unknown;
  error?: { code: string; message: string };
}

/** What a job reports: an index run's progress, or a step of its own (a clone). */
export type JobEvent = ProgressEvent | { stage: "clone"; message: string };

/** A job's work: it reports progress and hears cancellation. */
export type JobWork = (report: (event: JobEvent) => void, signal: AbortSignal) => Promise<unknown>;

/** How many finished jobs are kept for `GET /jobs`. */
const KEEP_FINISHED = 50;
/** How many jobs may wait or run at once. */
const MAX_PENDING = 100;
/** Progress is passed on at most this often per job (a state change always is). */
const PROGRESS_EVERY_MS = 200;

/**
 * The long work of the server (clones, syncs, re-embeddings) as jobs: each gets an id at once, runs
 * after the ones before it (one index run at a time: each holds a lexical builder and the parse
 * threads), and reports its progress to whoever listens (the SSE streams).
 */
export class Jobs {
  readonly #jobs = new Map<string, JobView>();
  /** What a pending job works on (kind and repositories), with which settings, and what cancels it. */
  readonly #pending = new Map<string, { scope: string; key: string; abort: AbortController }>();
  readonly #listeners = new Set<(job: JobView) => void>();
  readonly #closing = new AbortController();
  #chain: Promise<void> = Promise.resolve();

  /**
   * Queues `work` on `repos`. The same work already queued or running (same kind, same
   * repositories, same `key`: its settings) is not queued twice: its job is returned.
   * @throws ContextSmithError `ALREADY_EXISTS` for the same kind and repositories with another `key`, `BUSY` when too many jobs wait
   */
  submit(kind: JobKind, repos: string[], work: JobWork, key = ""): JobView {
    if (this.#closing.signal.aborted) throw new ContextSmithError("ABORTED", "The server is shutting down.");
    const scope = `${kind}\0${repos.join("\0")}`;
    const same = [...this.#pending].find(([, p]) => p.scope === scope);
    if (same && same[1].key === key) return this.get(same[0])!;
    if (same) throw new ContextSmithError("ALREADY_EXISTS", `A ${kind} of ${repos.join(", ")} is queued or running already, with other settings: wait for it, or remove the repository.`);
    if (this.#pending.size >= MAX_PENDING) throw new ContextSmithError("BUSY", `${this.#pending.size} jobs are waiting already: try again when some are done.`);
    const job: JobView = { id: randomUUID(), kind, repos, state: "queued", progress: null, createdAt: Date.now(), startedAt: null, endedAt: null };
    const abort = new AbortController();
    this.#jobs.set(job.id, job);
    this.#pending.set(job.id, { scope, key, abort });
    this.#prune();
    this.#emit(job);
    this.#chain = this.#chain.then(() => this.#run(job, work, AbortSignal.any([this.#closing.signal, abort.signal]))).catch(() => undefined);
    return { ...job };
  }

  /** Whether work of this kind on these repositories is queued or running. */
  has(kind: JobKind, repos: readonly string[]): boolean {
    const scope = `${kind}\0${repos.join("\0")}`;
    return [...this.#pending.values()].some((p) => p.scope === scope);
  }

  /** Cancels the jobs of a repository (it is being removed): a running one hears its signal, a queued one never starts. */
  cancel(repo: string): void {
    for (const [id, pending] of this.#pending) if (this.#jobs.get(id)!.repos.includes(repo)) pending.abort.abort();
  }

  get(id: string): JobView | undefined {
    const job = this.#jobs.get(id);
    return job && { ...job };
  }

  /** Newest first. */
  list(): JobView[] {
    return [...this.#jobs.values()].reverse().map((j) => ({ ...j }));
  }

  /** Calls `listener` with every change of every job; returns what stops it. */
  subscribe(listener: (job: JobView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Cancels what runs and what waits; resolves when the running job has stopped, or after `timeoutMs`. */
  async close(timeoutMs = 10_000): Promise<void> {
    this.#closing.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#chain, new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    this.#listeners.clear();
  }

  async #run(job: JobView, work: JobWork, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return this.#finish(job, { error: new ContextSmithError("ABORTED", this.#closing.signal.aborted ? "The server shut down before the job started." : "Cancelled before it started: its repository was removed.") });
    job.state = "running";
    job.startedAt = Date.now();
    this.#emit(job);
    let last = 0;
    const report = (event: JobEvent): void => {
      const progress = describe(event);
      if (!progress) return;
      job.progress = progress;
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS && progress.done !== progress.total) return;
      last = now;
      this.#emit(job);
    };
    try {
      this.#finish(job, { result: await work(report, signal) });
    } catch (error) {
      this.#finish(job, { error });
    }
  }

  #finish(job: JobView, outcome: { result?: unknown; error?: unknown }): void {
    this.#pending.delete(job.id);
    job.endedAt = Date.now();
    if (outcome.error !== undefined) {
      const err = ContextSmithError.from(outcome.error, "INTERNAL");
      job.state = "failed";
      job.error = { code: err.code, message: err.message };
    } else {
      job.state = "done";
      job.result = outcome.result;
    }
    this.#emit(job);
  }

  #emit(job: JobView): void {
    const view = { ...job };
    for (const listener of this.#listeners) {
      try {
        listener(view);
      } catch {
        // A listener that fails (a stream gone) must not stop the jobs.
      }
    }
  }

  #prune(): void {
    const finished = [...this.#jobs.values()].filter((j) => j.state === "done" || j.state === "failed");
    for (const job of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.#jobs.delete(job.id);
  }
}

/** A progress event as one line for a person, with its counts. */
export function describe(event: JobEvent): JobView["progress"] {
  switch (event.stage) {
    case "clone":
      return { stage: "clone", message: event.message };
    case "walk":
      return { stage: "walk", message: `found ${event.files} files` };
    case "plan":
      return { stage: "plan", message: `${event.toRead} files to read, ${event.unchanged} unchanged, ${event.removed} removed` };
    case "parse":
      return { stage: "parse", message: `parsed ${event.done}/${event.total} files`, done: event.done, total: event.total };
    case "git":
      return { stage: "git", message: `read ${event.commits} commits` };
    case "resolve":
      return { stage: "resolve", message: `resolved ${event.done}/${event.total} files`, done: event.done, total: event.total };
    case "embed":
      return { stage: "embed", message: `embedded ${event.done}/${event.total} files`, done: event.done, total: event.total };
    case "graph":
    case "lexical":
    case "history":
    case "lock":
      return { stage: event.stage, message: event.message };
    case "download":
      return { stage: "download", message: `downloading ${event.model} ${event.file}`, done: event.received, ...(event.total === null ? {} : { total: event.total }) };
    case "done":
      return { stage: "done", message: `index ready in ${event.ms} ms` };
  }
}
