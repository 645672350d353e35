// Test configuration shared by every package (run from the repository root).
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { plainWhenNotTTY } from "./plain-output.js";

// Output to a file or a pipe carries no ANSI escapes (a terminal keeps its colours).
if (plainWhenNotTTY(process.stdout)) process.env["NO_COLOR"] = "1";
plainWhenNotTTY(process.stderr);

const root = fileURLToPath(new URL("..", import.meta.url));

export default defineConfig({
  root,
  resolve: { conditions: ["development"] },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "bench/test/**/*.test.ts",
      ".ci/*.test.ts",
    ],
    globalSetup: [fileURLToPath(new URL("./postgres.setup.ts", import.meta.url))],
    // Generous: many tests start real processes (tsx from source) and databases on 2 shared cores.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    allowOnly: false,
    passWithNoTests: false,
    reporters: ["default", fileURLToPath(new URL("./count-reporter.ts", import.meta.url))],
  },
});
