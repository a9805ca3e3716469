import { Worker } from "node:worker_threads";
import { ContextSmithError } from "../core/errors.js";
import { workerFile } from "./worker-file.js";

/** A request to the token-count worker. */
export interface TokenRequest {
  id: number;
  encoding: string;
  texts: string[];
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
 * thread refreshes the index and ranks; a warm process keeps it loaded.
 *
 * The thread keeps the process alive only while a count is in flight: a library user who never
 * calls {@link TokenWorker.close} still sees the process exit.
 */
export class TokenWorker implements AsyncTokenCounter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, { resolve: (counts: number[]) => void; reject: (error: Error) => void }>();
  #nextId = 0;
  #failure: Error | null = null;

  constructor(readonly encoding: string) {
    this.#worker = new Worker(workerFile("tokens"));
    this.#worker.on("message", (response: TokenResponse) => {
      const pending = this.#pending.get(response.id);
      if (!pending) return;
      this.#pending.delete(response.id);
      if (this.#pending.size === 0) this.#worker.unref();
      if ("error" in response) pending.reject(ContextSmithError.from(response.error, "INTERNAL"));
      else pending.resolve(response.counts);
    });
    const fail = (error: Error): void => {
      this.#failure = ContextSmithError.from(error, "INTERNAL");
      for (const { reject } of this.#pending.values()) reject(this.#failure);
      this.#pending.clear();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new ContextSmithError("INTERNAL", `the token-count worker exited (code ${code})`)));
    // Load the encoder now; an unknown encoding fails the first real count.
    this.#request([]).catch(() => undefined);
  }

  async count(text: string): Promise<number> {
    if (text === "") return 0;
    const [n] = await this.#request([text]);
    return n!;
  }

  async close(): Promise<void> {
    this.#worker.removeAllListeners("exit");
    await this.#worker.terminate();
  }

  #request(texts: string[]): Promise<number[]> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.ref();
      this.#worker.postMessage({ id, encoding: this.encoding, texts } satisfies TokenRequest);
    });
  }
}
