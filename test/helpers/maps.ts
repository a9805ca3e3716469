import { readFileSync, realpathSync } from "node:fs";

/** How many maps of `file` this process holds, from /proc/self/maps (Linux; the kernel names the file by its real path). */
export function mapsOf(file: string): number {
  const real = realpathSync(file);
  return readFileSync("/proc/self/maps", "utf8").split("\n").filter((line) => line.endsWith(` ${real}`)).length;
}
