// Loading node-postgres in a fresh process: pg asks `navigator.userAgent` whether it runs in
// Cloudflare Workers, and without a `navigator` (Node 20) it constructs a fetch Response, which
// loads Node's fetch implementation. The index loads pg with that answer lent and taken back.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

describe("loading the PostgreSQL driver", () => {
  it("loads pg without loading fetch, and leaves globalThis.navigator as it found it", () => {
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "--conditions=development", join(here, "support", "pg-load-probe.ts")],
      { cwd: join(here, ".."), encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const seen = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as Record<string, unknown>;
    expect(seen).toEqual({
      had: seen["had"],
      has: seen["had"],
      same: true,
      opened: "Left",
      pgLoaded: true,
      fetchLoaded: false,
    });
  });
});
