// Vitest global setup: make a real PostgreSQL server available to the backend contract suites.
// Uses CC_PG_URL when it is set (CI starts the server); otherwise starts a throwaway cluster
// with .ci/postgres.sh. When neither works, PostgreSQL tests fail with the reason - never skip.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import type {} from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection URL of a PostgreSQL server for tests, or "" when none could be started. */
    pgUrl: string;
    /** Why no PostgreSQL server is available ("" when one is). */
    pgError: string;
  }
}

const script = fileURLToPath(new URL("./postgres.sh", import.meta.url));

export default function setup(project: TestProject): () => void {
  const given = process.env["CC_PG_URL"];
  if (given !== undefined && given !== "") {
    project.provide("pgUrl", given);
    project.provide("pgError", "");
    return () => undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "cc-pg-"));
  const port = String(55000 + Math.floor(Math.random() * 4000));
  try {
    const url = execFileSync("bash", [script, "start", dir, port], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
    project.provide("pgUrl", url);
    project.provide("pgError", "");
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    project.provide("pgUrl", "");
    project.provide("pgError", `could not start PostgreSQL (set CC_PG_URL or install postgresql): ${reason}`);
    return () => rmSync(dir, { recursive: true, force: true });
  }
  return () => {
    try {
      execFileSync("bash", [script, "stop", dir], { stdio: "ignore" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
