// `npm run test:hostile` (docs/operations.md#hostile-run): the fuzz, slow-client
// and kill -9 run against the compiled service, one file after the other so
// each part has the machine to itself; the default `npm test` leaves it out.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/hostile/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
  },
});
