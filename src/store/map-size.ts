/**
 * The address space mapped for an LMDB file from the start (the index, the vector cache), where
 * that is free: on a 64-bit platform other than Windows a map larger than the file takes no disk
 * and no memory (the file grows as it is written). lmdb-js otherwise starts at 128 KB and doubles
 * the map as the file grows, keeping every old map (a buffer read from it may still be in use) with
 * its resident pages: ten maps of one file, and on babel (a 146 MB index) 238 MB of RSS for it at
 * the graph stage; with one map, 156 MB. A 32-bit process has no room for it, and Windows is left
 * to lmdb-js's growth (not tried there); past 4 GiB lmdb-js grows the map as before.
 */
export function initialMapSize(platform: NodeJS.Platform = process.platform, arch: string = process.arch): number | undefined {
  return platform !== "win32" && arch.endsWith("64") ? 4 * 1024 ** 3 : undefined;
}

/** `initialMapSize` as lmdb-js's `open` options: none where lmdb-js keeps its own growing map. */
export function mapSizeOption(): { mapSize?: number } {
  const mapSize = initialMapSize();
  return mapSize === undefined ? {} : { mapSize };
}
