import { afterEach, describe, expect, it } from "vitest";
import { TokenWorker } from "../../src/runtime/token-worker.js";

describe("TokenWorker", () => {
  afterEach(() => {
    delete process.env.CTXSMITH_FAULT;
  });

  it("starts a new thread after its thread died: the count in flight fails, the next one is answered", async () => {
    process.env.CTXSMITH_FAULT = "tokens-exit"; // read by the thread when it starts
    const counter = new TokenWorker("cl100k_base");
    try {
      expect(await counter.count("hello world")).toBe(2);
      await expect(counter.count("CTXSMITH_FAULT")).rejects.toMatchObject({ code: "INTERNAL", message: "the token-count worker exited (code 3)" });
      expect(await counter.count("hello again, world")).toBe(4);
    } finally {
      await counter.close();
    }
  });

  it("settles every count on close, and refuses counts afterwards", async () => {
    const counter = new TokenWorker("cl100k_base");
    const inFlight = expect(counter.count("a text counted while the worker is closed")).rejects.toMatchObject({ code: "ABORTED" });
    await counter.close();
    await inFlight;
    await expect(counter.count("after")).rejects.toMatchObject({ code: "ABORTED" });
  });
});
