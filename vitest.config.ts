import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // FUSE tests mount real filesystems; forks isolate a crashing daemon client from the rest.
    pool: "forks",
  },
});
