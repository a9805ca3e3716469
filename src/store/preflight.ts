import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { ContextSmithError } from "../core/errors.js";

/**
 * Checks an LMDB data file's two meta pages before LMDB maps it. LMDB trusts its file (it is
 * crash-safe by design, so a kill -9 never damages it), but a file damaged by other means (a
 * truncated copy, a restored partial cache, garbage) can crash the process when mapped. Here a
 * damaged file is reported, and the indexer rebuilds instead of crashing.
 *
 * Layout (lmdb-js's LMDB, 64-bit): each meta page has the magic 0xBEEFC0DE at byte 24, the format
 * version at 28, the page size in the free-list DB record at 48, the last used page number at
 * 144 and the transaction id at 152. The newer of the two metas is the live one.
 */
export function checkDataFile(path: string): string | null {
  const MAGIC = 0xbeefc0de;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null; // nothing to check; LMDB will create it
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new ContextSmithError("IO_ERROR", `${path} is ${stat.isDirectory() ? "a folder" : "not a regular file"}, not an index file: move it away (or delete it) and run \`ctxsmith index\`.`);
    }
    const size = stat.size;
    const head = Buffer.alloc(160);
    if (size < 160 || readSync(fd, head, 0, 160, 0) < 160) return "the index file is truncated";
    if (head.readUInt32LE(24) !== MAGIC) return "the index file is not an LMDB file";
    const pageSize = head.readUInt32LE(48);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return "the index file has an invalid page size";
    if (size < 2 * pageSize) return "the index file is truncated";
    const second = Buffer.alloc(160);
    readSync(fd, second, 0, 160, pageSize);
    if (second.readUInt32LE(24) !== MAGIC) return "the index file's second meta page is damaged";
    if (second.readUInt32LE(28) !== head.readUInt32LE(28)) return "the index file's meta pages disagree";
    const live = Number(second.readBigUInt64LE(152)) > Number(head.readBigUInt64LE(152)) ? second : head;
    const lastPage = Number(live.readBigUInt64LE(144));
    // A writer may commit between the stat above and the meta read: LMDB grows the file before it
    // writes the meta that points into the new pages, so a size read after the meta covers it.
    if ((lastPage + 1) * pageSize > size && (lastPage + 1) * pageSize > fstatSync(fd).size) return "the index file is truncated";
    return null;
  } finally {
    closeSync(fd);
  }
}
