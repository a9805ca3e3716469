import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { ContextSmithError } from "../../core/errors.js";
import { acquireWriteLock } from "../lock.js";
import type { DownloadProgress } from "./types.js";

/** Where models come from and go. */
export interface ModelStoreOptions {
  /** `<cacheDir>/models/<org>--<name>` holds a downloaded model. */
  cacheDir: string;
  offline: boolean;
  /** The Hugging Face hub, or a mirror of it. */
  hubEndpoint: string;
  /** Prefer the int8 ONNX file. */
  quantized: boolean;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
  /** How long the hub may take to answer a request, not to send the file (default 30 s). */
  connectTimeoutMs?: number;
  /** How long a hub that could not be reached is not asked again (default 15 minutes). */
  retryAfterMs?: number;
}

const COMPLETE = ".complete";
const CONNECT_TIMEOUT_MS = 30_000;
/**
 * Left in the model's folder when the hub could not be reached (no network, a DNS failure, no
 * answer in time): every index run and every query's refresh looks the model up, and on a machine
 * without network each would otherwise wait for the network again (a black-holed one, 30 s). It
 * names the hub it is about: another endpoint (a mirror set after the failure) is asked at once.
 */
const UNREACHABLE = ".unreachable";
const RETRY_AFTER_MS = 15 * 60 * 1000;

/** Files of a model repository, in download order: what must be there, and what may be. */
function filesToFetch(quantized: boolean): Array<{ any: string[]; required: boolean }> {
  return [
    { any: ["config.json"], required: false },
    { any: ["tokenizer.json", "vocab.txt"], required: true },
    { any: ["tokenizer_config.json"], required: false },
    { any: ["1_Pooling/config.json"], required: false },
    { any: ["config_sentence_transformers.json"], required: false },
    { any: quantized ? ["onnx/model_quantized.onnx", "onnx/model_int8.onnx", "onnx/model.onnx"] : ["onnx/model.onnx", "model.onnx"], required: true },
  ];
}

/** Whether `model` names a folder rather than a hub id (an existing folder wins over a hub id of the same spelling). */
export function isLocalModel(model: string): boolean {
  return isAbsolute(model) || model.startsWith(".") || model.startsWith("~") || existsSync(model);
}

/** The cache folder of a hub model. */
export function modelCacheDir(cacheDir: string, model: string): string {
  return join(cacheDir, "models", model.replace(/\//g, "--"));
}

/**
 * A local folder holding `model`: the folder itself when it is one, else its copy in the cache,
 * downloaded from the hub first when it is not there (resumable, checked against the hub's
 * SHA-256, with progress). Offline, a model that is not in the cache is an error that says how
 * to bring it.
 */
export async function locateModel(model: string, options: ModelStoreOptions): Promise<string> {
  if (isLocalModel(model)) {
    const dir = resolve(model.startsWith("~") ? join(homedir(), model.slice(1)) : model);
    if (!existsSync(dir)) throw new ContextSmithError("NOT_FOUND", `The model folder ${dir} does not exist.`);
    return dir;
  }
  if (!/^[\w.-]+\/[\w.-]+$/.test(model)) throw new ContextSmithError("INVALID_ARGUMENT", `"${model}" is neither a Hugging Face model id (org/name) nor an existing folder.`);
  const dir = modelCacheDir(options.cacheDir, model);
  if (existsSync(join(dir, COMPLETE))) return dir;
  if (options.offline) {
    throw new ContextSmithError(
      "NOT_FOUND",
      `The model ${model} is not in the cache (${dir}) and offline mode is on. Copy the folder from a machine that has it, or set CTXSMITH_EMBED_MODEL to a local model folder.`,
    );
  }
  mkdirSync(dir, { recursive: true });
  // Two processes wanting the same model: one downloads, the other waits and finds it complete.
  const lock = await acquireWriteLock(dir, { wait: true, signal: options.signal });
  try {
    if (existsSync(join(dir, COMPLETE))) return dir;
    const fetched: string[] = [];
    for (const { any, required } of filesToFetch(options.quantized)) {
      let got: string | null = null;
      for (const file of any) {
        if (await downloadFile(model, file, join(dir, file), options)) {
          got = file;
          break;
        }
      }
      if (got) fetched.push(got);
      else if (required) throw new ContextSmithError("NOT_FOUND", `The model ${model} on ${options.hubEndpoint} has none of ${any.join(", ")}: it needs an ONNX export and a BERT tokenizer.`);
    }
    writeFileSync(join(dir, COMPLETE), `${JSON.stringify({ model, files: fetched, at: new Date().toISOString() })}\n`);
    rmSync(join(dir, UNREACHABLE), { force: true });
    return dir;
  } finally {
    lock.release();
  }
}

/**
 * Downloads one file of a hub repository to `target` through `target.part`, resuming a part left
 * by an interrupted download. False when the repository has no such file (404).
 */
async function downloadFile(model: string, file: string, target: string, options: ModelStoreOptions): Promise<boolean> {
  if (existsSync(target)) return true;
  const dir = modelCacheDir(options.cacheDir, model);
  // Only a file still to fetch asks the network, so only it is held back by a recent failure.
  const unreachable = recentlyUnreachable(dir, options.hubEndpoint, options.retryAfterMs ?? RETRY_AFTER_MS);
  if (unreachable) throw new ContextSmithError("IO_ERROR", unreachable);
  mkdirSync(dirname(target), { recursive: true });
  const part = `${target}.part`;
  const url = `${options.hubEndpoint}/${model}/resolve/main/${file}`;
  const have = existsSync(part) ? statSync(part).size : 0;
  let response: Response;
  let expected: { sha256: string | null; size: number | null };
  // A network that drops packets must not hang an index run: the hub answers in seconds. The
  // timer stops once the answer's headers are in; the body may take as long as it takes.
  const answered = new AbortController();
  const timeout = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const timer = setTimeout(() => answered.abort(new Error(`no answer in ${timeout / 1000} s`)), timeout);
  const signal = AbortSignal.any([answered.signal, ...(options.signal ? [options.signal] : [])]);
  const range: Record<string, string> = have > 0 ? { Range: `bytes=${have}-` } : {};
  try {
    // The hub answers LFS files with a redirect whose headers carry the file's SHA-256 and size.
    const first = await fetch(url, { redirect: "manual", signal, headers: range });
    expected = expectedOf(first.headers);
    response = first;
    const location = first.headers.get("location");
    if (first.status >= 300 && first.status < 400 && location) {
      response = await fetch(new URL(location, url), { signal, headers: range });
      const more = expectedOf(response.headers);
      expected = { sha256: expected.sha256 ?? more.sha256, size: expected.size ?? more.size };
    }
  } catch (error) {
    const cause = causeOf(error);
    const failure = `Cannot download ${url}: ${cause}. Offline? Set CTXSMITH_OFFLINE=1 and copy the model into ${dir}.`;
    // A cancelled run says nothing of the network, nor does an endpoint that is no URL.
    if (!options.signal?.aborted && cause !== "ERR_INVALID_URL") rememberUnreachable(dir, options.hubEndpoint, failure);
    throw new ContextSmithError("IO_ERROR", failure);
  } finally {
    clearTimeout(timer);
  }
  if (response.status === 404) return false;
  if (response.status === 416) {
    // The part is already whole (or longer than the file): start over.
    rmSync(part, { force: true });
    return downloadFile(model, file, target, options);
  }
  if (response.status !== 200 && response.status !== 206) {
    throw new ContextSmithError("IO_ERROR", `Cannot download ${url}: HTTP ${response.status}${response.status === 401 ? " (a gated or private model)" : ""}.`);
  }
  const resumed = response.status === 206 && have > 0;
  const total = contentTotal(response.headers, resumed ? have : 0) ?? expected.size;
  let received = resumed ? have : 0;
  const handle = await open(part, resumed ? "a" : "w");
  try {
    const reader = response.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      await handle.write(value);
      received += value.byteLength;
      options.onProgress?.({ model, file, received, total });
    }
  } catch (error) {
    // The part stays: the next attempt resumes from it.
    throw new ContextSmithError("IO_ERROR", `The download of ${file} was interrupted after ${received} bytes (${causeOf(error)}); run again to resume.`);
  } finally {
    await handle.close();
  }
  if (total !== null && received !== total) {
    throw new ContextSmithError("IO_ERROR", `The download of ${file} ended after ${received} of ${total} bytes; run again to resume.`);
  }
  if (expected.sha256) {
    const actual = await sha256File(part);
    if (actual !== expected.sha256) {
      rmSync(part, { force: true });
      throw new ContextSmithError("IO_ERROR", `The download of ${model}/${file} is damaged (SHA-256 ${actual.slice(0, 12)}…, the hub says ${expected.sha256.slice(0, 12)}…); it was deleted, run again.`);
    }
  }
  renameSync(part, target);
  return true;
}

function expectedOf(headers: Headers): { sha256: string | null; size: number | null } {
  const etag = (headers.get("x-linked-etag") ?? headers.get("etag") ?? "").replace(/^W\//, "").replace(/"/g, "");
  const size = Number(headers.get("x-linked-size") ?? NaN);
  return { sha256: /^[0-9a-f]{64}$/.test(etag) ? etag : null, size: Number.isFinite(size) ? size : null };
}

/** The whole file's size from `Content-Range: bytes a-b/total` or `Content-Length` (+ what was there). */
function contentTotal(headers: Headers, offset: number): number | null {
  const range = /\/(\d+)$/.exec(headers.get("content-range") ?? "");
  if (range) return Number(range[1]);
  const length = headers.get("content-length");
  return length === null ? null : offset + Number(length);
}

function sha256File(path: string): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", fail)
      .on("end", () => done(hash.digest("hex")));
  });
}

function causeOf(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

/**
 * Why `hub` was not reached less than `retryAfterMs` ago, and when it is asked again; null when it
 * was not, or the marker is of another hub, unreadable, or from the future (a clock set back).
 */
function recentlyUnreachable(dir: string, hub: string, retryAfterMs: number): string | null {
  const marker = join(dir, UNREACHABLE);
  let last: unknown;
  try {
    last = JSON.parse(readFileSync(marker, "utf8"));
  } catch {
    return null; // none, or unreadable: try the hub
  }
  const { at, failure, endpoint } = (last ?? {}) as { at?: unknown; failure?: unknown; endpoint?: unknown };
  if (typeof at !== "number" || typeof failure !== "string" || endpoint !== hub) return null;
  const left = at + retryAfterMs - Date.now();
  if (!(left > 0) || left > retryAfterMs) return null;
  return `${failure} Not asked again for ${Math.ceil(left / 60_000)} min: delete ${marker} to try now.`;
}

function rememberUnreachable(dir: string, hub: string, failure: string): void {
  try {
    writeFileSync(join(dir, UNREACHABLE), `${JSON.stringify({ at: Date.now(), endpoint: hub, failure })}\n`);
  } catch {
    // A cache folder that cannot be written: the next run asks the hub again.
  }
}
