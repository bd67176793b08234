import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The hostile run has its own invocation (npm run test:hostile, vitest.hostile.config.ts).
    exclude: [...configDefaults.exclude, "test/hostile/**"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Server and crash tests spawn child processes and bind ports: keep files
    // in separate workers but bounded for a 2-core machine.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
