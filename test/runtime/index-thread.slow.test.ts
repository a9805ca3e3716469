import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import type { ProgressEvent } from "../../src/core/types.js";
import { Runtime } from "../../src/runtime/runtime.js";
import { TempRepo } from "../helpers/repo.js";

/**
 * Two chunks of graph resolution (1,024 files each): the second is resolved synchronously right
 * after the first one's progress event, whichever thread runs it.
 */
function bigRepo(files = 2000): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < files; i++) {
    const next = (i + 1) % files;
    out[`pkg/m${i}.py`] = `from pkg.m${next} import f${next}\n\ndef f${i}(x):\n    return f${next}(x) + g${i}(x)\n\ndef g${i}(x):\n    return x * ${i}\n\nclass C${i}:\n    def run(self):\n        return f${i}(1)\n`;
  }
  return out;
}

let big: TempRepo;
let small: TempRepo;

beforeAll(() => {
  big = TempRepo.create(bigRepo());
  small = TempRepo.create({ "shop/cart.py": "def add_item(cart, item):\n    cart.append(item)\n" });
});

afterAll(() => {
  big?.dispose();
  small?.dispose();
});

/**
 * Cold-indexes the big repository while a warm engine of the small one is asked a question the
 * moment the big run's first resolution chunk is done (as a request arriving then would be), and
 * returns the order in which things happened.
 */
async function orderOfEvents(runtime: Runtime): Promise<string[]> {
  const events: string[] = [];
  const warm = new Engine(small.root, { jobs: 1, git: false, semantic: false, runtime });
  const cold = new Engine(big.root, { jobs: 2, git: false, semantic: false, runtime, indexDir: `${big.root}/.index-${Date.now()}` });
  try {
    await warm.index();
    await warm.symbol("add_item", { refresh: false });
    let asked = false;
    const onProgress = (event: ProgressEvent): void => {
      if (event.stage !== "resolve") return;
      events.push(`resolved ${event.done}/${event.total}`);
      if (asked) return;
      asked = true;
      setImmediate(() => {
        void warm.symbol("add_item", { refresh: false }).then((found) => events.push(`answered ${found.matches.length}`));
      });
    };
    await cold.index({ onProgress });
    events.push("indexed");
    // Let the answer land in the inline case.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return events;
  } finally {
    await warm.close();
    await cold.close();
  }
}

describe("the index thread", () => {
  it("a server's runtime answers another repository's query while a cold index resolves its graph", async () => {
    const runtime = new Runtime({ indexThread: true });
    try {
      const events = await orderOfEvents(runtime);
      expect(events).toEqual(["resolved 1024/2000", "answered 1", "resolved 2000/2000", "indexed"]);
      expect(runtime.indexThread!.running).toBe(false); // keep-alive 0: the thread went with the run
    } finally {
      await runtime.close();
    }
  });

  it("inline (a one-shot command's runtime), the same query waits for the resolution: the fault the thread removes", async () => {
    const runtime = new Runtime();
    try {
      const events = await orderOfEvents(runtime);
      expect(events.indexOf("answered 1")).toBeGreaterThan(events.indexOf("resolved 2000/2000"));
    } finally {
      await runtime.close();
    }
  });

  it("reports the run's failures as they are, and runs again afterwards", async () => {
    const runtime = new Runtime({ indexThread: true, keepAlive: "always" });
    const engine = new Engine(small.root, { jobs: 1, git: false, semantic: false, runtime, indexDir: `${small.root}/shop/cart.py/index` /* under a file: cannot be created */ });
    const ok = new Engine(small.root, { jobs: 1, git: false, semantic: false, runtime, indexDir: `${small.root}/.again` });
    try {
      await expect(engine.index()).rejects.toMatchObject({ code: "IO_ERROR" });
      expect((await ok.index()).files.parsed).toBe(1);
      expect(runtime.indexThread!.running).toBe(true);
    } finally {
      await engine.close();
      await ok.close();
      await runtime.close();
    }
    expect(runtime.indexThread!.running).toBe(false);
  });

  it("cancels a run in the thread through the caller's signal", async () => {
    const runtime = new Runtime({ indexThread: true });
    const engine = new Engine(big.root, { jobs: 1, git: false, semantic: false, runtime, indexDir: `${big.root}/.cancelled` });
    const controller = new AbortController();
    try {
      const run = engine.index({ signal: controller.signal, onProgress: (e) => void (e.stage === "parse" && controller.abort()) });
      await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    } finally {
      await engine.close();
      await runtime.close();
    }
  });
});
