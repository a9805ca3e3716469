import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | undefined;

/**
 * A full garbage collection now. Obtained the documented way that needs no `--expose-gc` on the
 * command line (which worker threads do not accept and a library cannot ask its host for). The flag
 * is turned off again once the function is had: V8 stamps a code cache with the flags of the moment
 * (`cli/code-cache.ts`), and a run that left it on would write a cache the next run refuses.
 */
export function collectGarbage(): void {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as () => void;
    v8.setFlagsFromString("--no-expose-gc");
  }
  collect();
}
