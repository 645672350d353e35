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

  it("runs as a process and prints pressure, eviction, summary, search and expand", () => {
    const r = spawnSync(process.execPath, ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out.split("\n").length).toBeLessThan(120);
    expect(out).toMatch(/→ (soft|hard) pressure; \d+ segments, \d+ re-accessed later/);
    expect(out).toMatch(/evict {4}\d+ units → index/);
    expect(out).toMatch(/summary {2}lcm level (detailed|bullet|truncate)/);
    expect(out).toMatch(/search "compute_total rounding": [1-9]\d* hits/);
    expect(out).toMatch(/expand \S+: \d+ chars of the original back in context/);
  }, 300_000);
});
