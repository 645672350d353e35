import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../..");

interface Probe {
  readonly before: readonly string[];
  readonly afterImport: readonly string[];
  readonly afterEstimate: readonly string[];
  readonly afterExact: readonly string[];
  readonly estimates: readonly number[];
  readonly exactCount: number;
}

/** Runs the probe in a fresh Node process (nothing loaded yet) and parses what it saw. */
async function probe(): Promise<Probe> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--conditions=development", join(here, "support/load-probe.ts"), "@cc/tokens"],
    { cwd: root },
  );
  return JSON.parse(stdout) as Probe;
}

describe("lazy loading of the tiktoken module", () => {
  it("importing @cc/tokens and estimating loads no tiktoken file; the first exact count loads one rank table and no WASM", async () => {
    const seen = await probe();
    expect(seen.before).toEqual([]);
    expect(seen.afterImport).toEqual([]);
    expect(seen.afterEstimate).toEqual([]);
    expect(seen.estimates.every((n) => Number.isInteger(n) && n > 0)).toBe(true);
    // The detector sees the real load: the exact counter reads one encoder's ranks, and counts
    // without the WASM module (only the reference `rawTiktoken` loads it).
    expect(seen.afterExact).toEqual(["encoders/o200k_base.json"]);
    expect(seen.afterExact).not.toContain("encoders/cl100k_base.json");
    expect(seen.exactCount).toBe(2);
  });
});
