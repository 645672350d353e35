import { describe, it, expect } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateSession } from "../src/index.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("agent-loop demo", () => {
  it("the generator is deterministic and refers back to earlier files", () => {
    const a = JSON.stringify(generateSession({ seed: 3 }));
    expect(JSON.stringify(generateSession({ seed: 3 }))).toBe(a);
    expect(a).toContain("Check src/billing/invoice.py again");
  });

  it("a full-suite turn is about six times a normal output and leaves the other turns as they were", () => {
    const plain = generateSession({ seed: 3, turns: 8, outputLines: 40 });
    const suite = generateSession({ seed: 3, turns: 8, outputLines: 40, fullSuiteAt: [5] });
    expect(suite.slice(0, 6)).toEqual(plain.slice(0, 6));
    const out = suite[6]![1]!.content;
    expect(out.split("\n").length).toBeGreaterThan(6 * 40);
    expect(out).toMatch(/\n\d+ failed, \d+ passed$/);
    expect(suite[6]![0]).toMatchObject({ role: "assistant", toolCalls: [{ name: "bash", arguments: '{"command":"pytest -vv tests"}' }] });
  });

  it("runs as a process and prints pressure, eviction, summary, search and expand", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out.split("\n").length).toBeLessThan(120);
    expect(out).toMatch(/→ soft pressure; \d+ segments?, \d+ re-accessed so far/);
    expect(out).toMatch(/→ hard pressure; \d+ segments?, \d+ re-accessed so far/);
    expect(out).toMatch(/evict {4}(1 unit|\d+ units) → index/);
    expect(out).not.toMatch(/\b1 units\b|\b1 segments\b/);
    expect(out).toMatch(/summary {2}u[0-9a-f]{16}(\.\d+)?: \[tool:\w+\] \S/);
    expect(out).toMatch(/search "compute_total rounding": [1-9]\d* hits/);
    expect(out).toMatch(/expand \S+: \d+ chars of the original back in context/);
  }, 300_000);
});
