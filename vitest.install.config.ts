import { defineConfig } from "vitest/config";

// The install test (test/install/): packs the package and installs it as a user would, from the
// npm registry. Minutes long and networked, so apart from `npm test`: `npm run test:install`,
// which CI runs after the suite (.ci/run).
export default defineConfig({
  test: {
    include: ["test/install/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 900_000,
  },
});
