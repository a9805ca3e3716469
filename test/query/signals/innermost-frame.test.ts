import { describe, expect, it } from "vitest";
import { DEFAULT_RANKING } from "../../../src/query/ranking-config.js";
import type { SignalContext } from "../../../src/query/signals/context.js";
import { innermostFrameSignal } from "../../../src/query/signals/innermost-frame.js";
import { parseTask } from "../../../src/query/task.js";
import { PathIndex } from "../../../src/store/path-index.js";

const PATHS = new PathIndex(["shop/cart.py", "shop/pricing.py", "shop/packages/money/decimal.py", "tests/test_cart.py", "shop/Cart.java", "shop/Pricing.java"]);

/** The files the signal finds for a task, with their evidence. */
function innermost(text: string): Array<[string, string]> {
  const ctx = { task: parseTask(text), paths: PATHS, config: DEFAULT_RANKING } as unknown as SignalContext;
  return innermostFrameSignal(ctx).hits.map((h) => [h.path, h.evidence]);
}

const traceback = (...frames: Array<[string, number, string]>): string =>
  ["Traceback (most recent call last):", ...frames.map(([file, line, fn]) => `  File "${file}", line ${line}, in ${fn}`), "ValueError: bad amount"].join("\n");

describe("innermostFrameSignal", () => {
  it("finds the project file of a Python traceback's innermost frame, past the standard library", () => {
    const task = traceback(["/home/u/proj/shop/cart.py", 11, "checkout"], ["/home/u/proj/shop/pricing.py", 5, "total_price"], ["/usr/lib/python3.11/decimal.py", 380, "quantize"]);
    expect(innermost(task)).toEqual([["shop/pricing.py", "innermost frame pricing.py:5 in total_price"]]);
  });

  it("passes over tests, unless the task is about tests, and vendored copies of other projects", () => {
    const viaVendored = traceback(["shop/cart.py", 11, "checkout"], ["shop/packages/money/decimal.py", 9, "round"]);
    expect(innermost(viaVendored).map(([p]) => p)).toEqual(["shop/cart.py"]);
    const inTest = traceback(["shop/pricing.py", 5, "total_price"], ["tests/test_cart.py", 6, "helper"]);
    expect(innermost(inTest).map(([p]) => p)).toEqual(["shop/pricing.py"]);
    expect(innermost(`The unit test fails:\n${inTest}`).map(([p]) => p)).toEqual(["tests/test_cart.py"]);
  });

  it("finds nothing without a Python frame in the project: JVM frames are the references signal's", () => {
    expect(innermost("checkout is slow")).toEqual([]);
    expect(innermost(traceback(["/usr/lib/python3.11/json/decoder.py", 337, "decode"]))).toEqual([]);
    expect(innermost("java.lang.NullPointerException\n\tat shop.Pricing.total(Pricing.java:12)\n\tat shop.Cart.checkout(Cart.java:30)")).toEqual([]);
  });
});
