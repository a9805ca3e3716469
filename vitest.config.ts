import { defineConfig } from "vitest/config";

// Two projects: the fast suite and the slow one (crash-safety kills, concurrency, CLI processes).
// Both run in CI; `npx vitest run --project fast` is the quick inner loop.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: ["test/**/*.slow.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "slow",
          include: ["test/**/*.slow.test.ts"],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Slow tests spawn CLI processes and worker pools; on a 2-core machine run them one file at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
