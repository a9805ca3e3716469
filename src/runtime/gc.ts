import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | undefined;

/**
 * A full garbage collection now. Obtained the documented way that needs no `--expose-gc` on the
 * command line (which worker threads do not accept and a library cannot ask its host for).
 */
export function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as () => void;
  }
  collect();
}
