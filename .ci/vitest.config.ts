// Test configuration shared by every package (run from the repository root).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  resolve: { conditions: ["development"] },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts", "bench/test/**/*.test.ts", ".ci/*.test.ts"],
    globalSetup: [fileURLToPath(new URL("./postgres.setup.ts", import.meta.url))],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    allowOnly: false,
    passWithNoTests: false,
    reporters: ["default", fileURLToPath(new URL("./count-reporter.ts", import.meta.url))],
  },
});
