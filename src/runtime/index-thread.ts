import { Worker, type MessagePort } from "node:worker_threads";
import type { Config } from "../core/config.js";
import type { KeepAlive } from "../core/embedding-settings.js";
import { ContextSmithError } from "../core/errors.js";
import type { IndexStats, ProgressEvent, RunOptions } from "../core/types.js";
import type { EmbedKind, Embedder, Provenance } from "./embed/types.js";
import { INDEX_PROTOCOL_VERSION, type FromIndexThread, type ToIndexThread } from "./index-protocol.js";
import { Resident } from "./resident.js";
import { workerFile } from "./worker-file.js";

interface PendingRun {
  embedder: Embedder | null;
  onProgress: (event: ProgressEvent) => void;
  resolve: (stats: IndexStats) => void;
  reject: (error: Error) => void;
}

/**
 * The serving side of the index thread: one worker thread per process that runs the index runs of
 * every repository (with one set of parse threads), started on first use and let go after
 * `keepAlive` idle. Runs of different repositories go on side by side; runs of one repository
 * take turns through the write lock, as separate processes do.
 */
export class IndexThread {
  readonly #worker: Resident<Worker>;
  readonly #runs = new Map<number, PendingRun>();
  #nextRun = 1;

  constructor(keepAlive: KeepAlive) {
    this.#worker = new Resident(
      async () => this.#start(),
      async (worker) => {
        worker.removeAllListeners("exit");
        await worker.terminate();
      },
      keepAlive,
    );
  }

  /** Runs `runIndex(config)` in the index thread; `embedder` (of this thread) makes its vectors. */
  run(config: Config, embedder: Embedder | null, options: RunOptions = {}): Promise<IndexStats> {
    return this.#worker.use(
      (worker) =>
        new Promise<IndexStats>((resolve, reject) => {
          const run = this.#nextRun++;
          const onAbort = (): void => post(worker, { type: "cancel", run });
          options.signal?.addEventListener("abort", onAbort, { once: true });
          const settle = <T>(fn: (value: T) => void) => (value: T): void => {
            options.signal?.removeEventListener("abort", onAbort);
            this.#runs.delete(run);
            if (this.#runs.size === 0) worker.unref();
            fn(value);
          };
          this.#runs.set(run, { embedder, onProgress: options.onProgress ?? (() => undefined), resolve: settle(resolve), reject: settle(reject) });
          worker.ref();
          post(worker, { type: "run", version: INDEX_PROTOCOL_VERSION, run, config, semantic: embedder !== null, wait: options.wait ?? true, waitTimeoutMs: options.waitTimeoutMs });
          if (options.signal?.aborted) onAbort();
        }),
    );
  }

  /** Whether the thread is up now. */
  get running(): boolean {
    return this.#worker.loaded;
  }

  /** Stops the thread (call it when no run is in flight: a run in flight fails). */
  close(): Promise<void> {
    return this.#worker.close();
  }

  #start(): Worker {
    const worker = new Worker(workerFile("index"));
    worker.unref(); // an idle index thread never keeps the process alive
    worker.on("message", (message: FromIndexThread) => this.#onMessage(worker, message));
    const fail = (error: Error): void => {
      const failure = ContextSmithError.from(error, "WORKER_FAILED");
      for (const run of [...this.#runs.values()]) run.reject(failure);
      // The next run starts a fresh thread.
      void this.#worker.close();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new ContextSmithError("WORKER_FAILED", `the index thread exited (code ${code})`)));
    return worker;
  }

  #onMessage(worker: Worker, message: FromIndexThread): void {
    const run = this.#runs.get(message.run);
    if (!run) return;
    switch (message.type) {
      case "progress":
        run.onProgress(message.event);
        return;
      case "done":
        run.resolve(message.stats);
        return;
      case "failed":
        run.reject(ContextSmithError.from(message.error, "WORKER_FAILED"));
        return;
      case "provenance":
      case "embed": {
        const { call } = message;
        const answer = (reply: Omit<Extract<ToIndexThread, { type: "embedder" }>, "type" | "run" | "call">): void =>
          post(worker, { type: "embedder", run: message.run, call, ...reply }, reply.vectors?.map((v) => v.buffer as ArrayBuffer));
        const work: Promise<unknown> = !run.embedder
          ? Promise.reject(new ContextSmithError("INTERNAL", "semantic search is off"))
          : message.type === "provenance"
            ? run.embedder.provenance().then((provenance) => answer({ provenance }))
            : run.embedder.embed(message.texts, message.kind).then((vectors) => answer({ vectors }));
        work.catch((error: unknown) => answer({ error: ContextSmithError.from(error, "INTERNAL").toJSON() }));
        return;
      }
    }
  }
}

function post(port: Worker | MessagePort, message: ToIndexThread | FromIndexThread, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

/**
 * The index thread's view of the serving thread's embedder: every call is a message, answered
 * with the vectors (moved, not copied). Closing it releases nothing: the model is not its own.
 */
export class PortEmbedder implements Embedder {
  readonly #pending = new Map<number, { resolve: (value: Extract<ToIndexThread, { type: "embedder" }>) => void; reject: (error: Error) => void }>();
  #nextCall = 0;

  constructor(
    private readonly port: MessagePort,
    private readonly run: number,
  ) {}

  /** Hands an answer of the serving thread to its call. */
  answer(message: Extract<ToIndexThread, { type: "embedder" }>): void {
    const pending = this.#pending.get(message.call);
    if (!pending) return;
    this.#pending.delete(message.call);
    if (message.error) pending.reject(ContextSmithError.from(message.error, "INTERNAL"));
    else pending.resolve(message);
  }

  async provenance(): Promise<Provenance> {
    return (await this.#call({ type: "provenance", run: this.run, call: 0 })).provenance!;
  }

  async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    return (await this.#call({ type: "embed", run: this.run, call: 0, texts: [...texts], kind })).vectors!;
  }

  async close(): Promise<void> {}

  #call(message: Extract<FromIndexThread, { type: "provenance" | "embed" }>): Promise<Extract<ToIndexThread, { type: "embedder" }>> {
    const call = this.#nextCall++;
    return new Promise((resolve, reject) => {
      this.#pending.set(call, { resolve, reject });
      post(this.port, { ...message, call });
    });
  }
}
