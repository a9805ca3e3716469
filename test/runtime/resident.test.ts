import { describe, expect, it } from "vitest";
import { Resident } from "../../src/runtime/resident.js";
import { ManualTimers } from "../helpers/timers.js";
import { parseKeepAlive } from "../../src/core/embedding-settings.js";

function model(keepAlive: number | "always", timers = new ManualTimers()) {
  const log: string[] = [];
  let n = 0;
  const resident = new Resident(
    async () => {
      log.push("load");
      await new Promise((r) => setTimeout(r, 5));
      return ++n;
    },
    async (value) => void log.push(`release ${value}`),
    keepAlive,
    timers,
  );
  return { resident, log, timers };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe("keep-alive policy", () => {
  it("loads once for concurrent users and releases after the grace period", async () => {
    const { resident, log, timers } = model(30_000);
    const results = await Promise.all([resident.use(async (v) => v), resident.use(async (v) => v), resident.use(async (v) => v)]);
    expect(results).toEqual([1, 1, 1]);
    expect(log).toEqual(["load"]);
    expect(resident.loaded).toBe(true);
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([30_000]);
    timers.fireAll();
    await settle();
    expect(log).toEqual(["load", "release 1"]);
    expect(resident.loaded).toBe(false);
    // The next use loads again.
    expect(await resident.use(async (v) => v)).toBe(2);
  });

  it("a use during the grace period cancels the release", async () => {
    const { resident, log, timers } = model(30_000);
    await resident.use(async () => undefined);
    expect(timers.pending.size).toBe(1);
    await resident.use(async () => undefined);
    expect(timers.pending.size).toBe(1); // the first timer was cleared, a new one set
    expect(log).toEqual(["load"]);
  });

  it("0 releases right after each use; always never does (until close)", async () => {
    const zero = model(0);
    await zero.resident.use(async () => undefined);
    await settle();
    expect(zero.log).toEqual(["load", "release 1"]);
    expect(zero.timers.pending.size).toBe(0);

    const always = model("always");
    await always.resident.use(async () => undefined);
    await always.resident.use(async () => undefined);
    await settle();
    expect(always.log).toEqual(["load"]);
    expect(always.timers.pending.size).toBe(0);
    await always.resident.close();
    expect(always.log).toEqual(["load", "release 1"]);
  });

  it("a failed load is not kept: the next use tries again", async () => {
    let attempts = 0;
    const resident = new Resident(
      async () => {
        if (++attempts === 1) throw new Error("no model");
        return "model";
      },
      async () => undefined,
      1000,
      new ManualTimers(),
    );
    await expect(resident.use(async (v) => v)).rejects.toThrow("no model");
    expect(await resident.use(async (v) => v)).toBe("model");
  });

  it("parses keep-alive durations", () => {
    expect(parseKeepAlive("30s")).toBe(30_000);
    expect(parseKeepAlive("5m")).toBe(300_000);
    expect(parseKeepAlive("250ms")).toBe(250);
    expect(parseKeepAlive("0")).toBe(0);
    expect(parseKeepAlive("45")).toBe(45_000);
    expect(parseKeepAlive("always")).toBe("always");
    expect(parseKeepAlive("-1")).toBe("always");
    expect(() => parseKeepAlive("soon")).toThrow(/duration like 30s/);
  });
});
