import { describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";
import { Jobs, type JobView } from "../../src/http/jobs.js";

const until = async (jobs: Jobs, id: string): Promise<JobView> => {
  for (let i = 0; i < 200; i++) {
    const job = jobs.get(id)!;
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("the job did not finish");
};

describe("Jobs", () => {
  it("runs jobs one after another, in order, reporting each change", async () => {
    const jobs = new Jobs();
    const seen: string[] = [];
    jobs.subscribe((j) => seen.push(`${j.repos[0]}:${j.state}`));
    let release!: () => void;
    const first = jobs.submit("sync", ["a"], () => new Promise((r) => (release = () => r("a done"))));
    const second = jobs.submit("sync", ["b"], async (report) => {
      report({ stage: "parse", done: 1, total: 1, batch: 1 });
      return "b done";
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(jobs.get(second.id)!.state).toBe("queued");
    release();
    expect(await until(jobs, second.id)).toMatchObject({ state: "done", result: "b done", progress: { stage: "parse", message: "parsed 1/1 files", done: 1, total: 1 } });
    expect((await until(jobs, first.id)).result).toBe("a done");
    expect(seen).toEqual(["a:queued", "b:queued", "a:running", "a:done", "b:running", "b:running", "b:done"]);
    expect(jobs.list().map((j) => j.repos[0])).toEqual(["b", "a"]);
    await jobs.close();
  });

  it("the same work asked twice while it waits is one job; a failure is the job's, not the queue's", async () => {
    const jobs = new Jobs();
    let release!: () => void;
    const running = jobs.submit("sync", ["a"], () => new Promise((r) => (release = () => r(null))));
    const again = jobs.submit("sync", ["a"], async () => "never");
    expect(again.id).toBe(running.id);
    const failing = jobs.submit("sync", ["b"], async () => {
      throw new ContextSmithError("GIT_FAILED", "fetch failed");
    });
    // A listener that throws stops nothing.
    jobs.subscribe(() => {
      throw new Error("a stream went away");
    });
    const after = jobs.submit("add", ["c"], async () => "c");
    await new Promise((r) => setTimeout(r, 10));
    release();
    expect(await until(jobs, failing.id)).toMatchObject({ state: "failed", error: { code: "GIT_FAILED", message: "fetch failed" } });
    expect(await until(jobs, after.id)).toMatchObject({ state: "done", result: "c" });
    await jobs.close();
  });

  it("refuses more than 100 waiting jobs, and cancels what waits when closed", async () => {
    const jobs = new Jobs();
    let release!: () => void;
    jobs.submit("sync", ["r0"], (_report, signal) => new Promise((r) => ((release = () => r(null)), signal.addEventListener("abort", () => r(null)))));
    const waiting = Array.from({ length: 99 }, (_, i) => jobs.submit("sync", [`r${i + 1}`], async () => null));
    expect(() => jobs.submit("sync", ["one-more"], async () => null)).toThrow(expect.objectContaining({ code: "BUSY" }));
    await new Promise((r) => setTimeout(r, 10));
    const closing = jobs.close();
    release();
    await closing;
    expect(jobs.get(waiting[5]!.id)).toMatchObject({ state: "failed", error: { code: "ABORTED" } });
    expect(() => jobs.submit("sync", ["late"], async () => null)).toThrow(expect.objectContaining({ code: "ABORTED" }));
  });
});
