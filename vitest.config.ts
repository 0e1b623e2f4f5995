import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Hang guards only: no test races these. They are generous because a busy machine is slow.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // FUSE tests mount real filesystems; forks isolate a crashing daemon client from the rest.
    pool: "forks",
    // Two test files at a time, as many as the two cores CI has: each FUSE file also runs a daemon
    // and the tools it drives, so more files at once would only make every one of them slower.
    maxWorkers: 2,
  },
});
