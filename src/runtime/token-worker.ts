import { Worker } from "node:worker_threads";
import { ContextSmithError } from "../core/errors.js";
import { workerFile } from "./worker-file.js";

/** A request to the token-count worker. */
export interface TokenRequest {
  id: number;
  encoding: string;
  texts: string[];
}

/** What the worker is started with. */
export interface TokenWorkerData {
  /** Where the counter's tables are kept between processes (see `tokenCounter`); null: nowhere. */
  cacheDir: string | null;
}

/** Its answer: one count per text, or the error. */
export type TokenResponse = { id: number; counts: number[] } | { id: number; error: { code: string; message: string } };

/** Counts tokens asynchronously, the way the model that reads the context does. */
export interface AsyncTokenCounter {
  readonly encoding: string;
  count(text: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Counts tokens in a worker thread (`workers/tokens.ts`). The worker starts loading the
 * encoder as soon as this is created, so a one-shot `ctxsmith context` loads it while the main
 * thread refreshes the index and ranks; a warm process keeps it loaded. A worker that fails or
 * exits fails the counts in flight and is started anew by the next count.
 *
 * The thread keeps the process alive only while a count is in flight: a library user who never
 * calls {@link TokenWorker.close} still sees the process exit.
 */
export class TokenWorker implements AsyncTokenCounter {
  #worker: Worker | null = null;
  /** Counts in flight, with the thread each was sent to. */
  readonly #pending = new Map<number, { worker: Worker; resolve: (counts: number[]) => void; reject: (error: Error) => void }>();
  #nextId = 0;
  #closed = false;

  constructor(
    readonly encoding: string,
    private readonly cacheDir: string | null = null,
  ) {
    // Load the encoder now; an unknown encoding fails the first real count.
    this.#request([]).catch(() => undefined);
  }

  async count(text: string): Promise<number> {
    if (text === "") return 0;
    const [n] = await this.#request([text]);
    return n!;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    this.#fail(null, new ContextSmithError("ABORTED", "The token counter was closed."));
    if (!worker) return;
    worker.removeAllListeners("exit");
    // An unref'd thread's terminate() may never settle: the event loop empties first, and the
    // process exits with nothing printed (13: an unsettled await).
    worker.ref();
    await worker.terminate();
  }

  #spawn(): Worker {
    const worker = new Worker(workerFile("tokens"), { workerData: { cacheDir: this.cacheDir } satisfies TokenWorkerData });
    worker.on("message", (response: TokenResponse) => {
      const pending = this.#pending.get(response.id);
      if (!pending) return;
      this.#pending.delete(response.id);
      if (![...this.#pending.values()].some((p) => p.worker === worker)) worker.unref();
      if ("error" in response) pending.reject(ContextSmithError.from(response.error, "INTERNAL"));
      else pending.resolve(response.counts);
    });
    // An error and then an exit of the same thread fail its counts once, never a new thread's.
    const fail = (error: Error): void => {
      if (this.#worker === worker) this.#worker = null;
      this.#fail(worker, ContextSmithError.from(error, "INTERNAL"));
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new ContextSmithError("INTERNAL", `the token-count worker exited (code ${code})`)));
    return worker;
  }

  /** Fails the counts sent to `worker` (null: every count). */
  #fail(worker: Worker | null, error: Error): void {
    for (const [id, pending] of [...this.#pending]) {
      if (worker !== null && pending.worker !== worker) continue;
      this.#pending.delete(id);
      pending.reject(error);
    }
  }

  #request(texts: string[]): Promise<number[]> {
    if (this.#closed) return Promise.reject(new ContextSmithError("ABORTED", "The token counter was closed."));
    const worker = (this.#worker ??= this.#spawn());
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { worker, resolve, reject });
      worker.ref();
      worker.postMessage({ id, encoding: this.encoding, texts } satisfies TokenRequest);
    });
  }
}
