import { describe, it, expect } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as E from "fp-ts/lib/Either.js";
import { generateSession, parseBudget, parsePolicy } from "../src/index.js";

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
    expect(suite[6]![0]).toMatchObject({
      role: "assistant",
      toolCalls: [{ name: "bash", arguments: '{"command":"pytest -vv tests"}' }],
    });
  });

  it("runs as a process and prints pressure, eviction, summary, search and expand", () => {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"],
      { cwd: root, encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout;
    expect(out.split("\n").length).toBeLessThan(120);
    expect(out).toMatch(/→ soft pressure; \d+ segments?, \d+ re-accessed so far/);
    expect(out).toMatch(/→ hard pressure; \d+ segments?, \d+ re-accessed so far/);
    expect(out).toMatch(/evict {4}(1 unit|\d+ units) → index/);
    expect(out).not.toMatch(/\b1 units\b|\b1 segments\b/);
    expect(out).toMatch(/summary {2}u[0-9a-f]{32}(\.\d+)?: \[tool:\w+\] \S/);
    expect(out).toMatch(/search "compute_total rounding": [1-9]\d* hits/);
    expect(out).toMatch(/expand \S+: restored \d+ chars \/ \d+ tokens; context now \d+ tokens/);
    // Beside each compacted size, the size without compaction at that turn.
    expect(out).toMatch(/evict {4}.* \(\d+ → \d+ tokens; uncompacted \d+\)/);
    expect(out).toMatch(/next prompt: \d+ messages, \d+ tokens \(uncompacted \d+\)/);
    // The default index lives in memory: no file is written.
    expect(out).toMatch(/, index in memory\n/);
  }, 300_000);

  it("the expand line's numbers: restored chars and tokens of the recovered message, then the context size", () => {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"],
      { cwd: root, encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const m = /expand \S+: restored (\d+) chars \/ (\d+) tokens; context now (\d+) tokens/.exec(r.stdout);
    const final = /final context \d+ messages, (\d+) tokens \(uncompacted (\d+); budget 8000\)/.exec(r.stdout);
    expect(m).not.toBeNull();
    expect(final).not.toBeNull();
    const [chars, tokens, now] = [Number(m![1]), Number(m![2]), Number(m![3])];
    expect(tokens).toBeLessThan(chars); // tokens of the recovered text, not the whole context
    expect(now).toBeGreaterThan(Number(final![1]));
    expect(now - Number(final![1])).toBeLessThanOrEqual(tokens + 3);
    expect(Number(final![2])).toBeGreaterThan(Number(final![1]));
  }, 300_000);

  it("a bad CC_DEMO_BUDGET is one line on stderr and exit code 2", () => {
    for (const bad of ["abc", "-5", "0", "1e99", "NaN", "12.5", "99999999999999999999"]) {
      const r = spawnSync(
        process.execPath,
        ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"],
        {
          cwd: root,
          encoding: "utf8",
          env: { ...process.env, CC_DEMO_BUDGET: bad },
        },
      );
      expect(r.status, `${bad}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(
        `agent-loop demo: CC_DEMO_BUDGET: expected a positive integer (tokens), got ${JSON.stringify(bad)}\n`,
      );
      expect(r.stdout).toBe("");
    }
  }, 300_000);

  it("a CC_DEMO_INDEX that cannot be opened as an index is one line on stderr and exit code 5", () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-demo-dir-"));
    try {
      const r = spawnSync(
        process.execPath,
        ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"],
        {
          cwd: root,
          encoding: "utf8",
          env: { ...process.env, CC_DEMO_INDEX: dir },
        },
      );
      expect(r.status, r.stderr).toBe(5);
      expect(r.stderr).toMatch(new RegExp(`^agent-loop demo: cannot open the index ${dir}: \\w+.*\\n$`));
      expect(r.stdout).toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  test.prop([fc.string()])("parseBudget accepts exactly the positive safe integers written in digits", (raw) => {
    const r = parseBudget(raw);
    const t = raw.trim();
    const n = Number(t);
    const ok = t === "" || (/^\d+$/.test(t) && Number.isSafeInteger(n) && n >= 1);
    expect(E.isRight(r)).toBe(ok);
  });

  test.prop([fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })])(
    "parseBudget reads every positive integer back",
    (n) => {
      expect(parseBudget(String(n))).toEqual(E.right(n));
    },
  );

  it("`pnpm demo` in examples/agent-loop runs the same demo; CC_DEMO_QUERY chooses the search and CC_DEMO_INDEX keeps the index", () => {
    const own = JSON.parse(readFileSync(join(root, "examples/agent-loop/package.json"), "utf8")) as {
      scripts: { demo: string };
    };
    const top = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { demo: string } };
    // The root script runs the example's own tsx: the demo-only install has no root devDependencies.
    expect(top.scripts.demo).toBe(
      `examples/agent-loop/node_modules/.bin/${own.scripts.demo.replace("main.ts", "examples/agent-loop/main.ts")}`,
    );
    const dir = mkdtempSync(join(tmpdir(), "cc-demo-test-"));
    try {
      const kept = join(dir, "kept.db");
      const r = spawnSync("npx", ["-y", "pnpm@12.4.2", "demo"], {
        cwd: join(root, "examples/agent-loop"),
        encoding: "utf8",
        env: { ...process.env, CC_DEMO_QUERY: "invoice total", CC_DEMO_INDEX: kept },
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain(`index ${kept} (kept)`);
      expect(r.stdout).toMatch(/search "invoice total": [1-9]\d* hits/);
      expect(existsSync(kept)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it("CC_DEMO_POLICY=cost prints a decision line for every compaction and every wait, and a decision count; a bad policy exits 2", () => {
    const r = spawnSync(
      process.execPath,
      ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, CC_DEMO_POLICY: "cost" },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(", policy cost");
    expect(r.stdout).toMatch(
      / {2}decision compacted: hard threshold reached \(\d+ → \d+ tokens, target \d+\); rewrite \$\d+\.\d{4} vs \$\d+\.\d{4}\/turn saved/,
    );
    expect(r.stdout).toMatch(
      /turn \d+: decision waited: below the break-even size: a rewrite would cost more than it saves \(\d+ tokens, break-even \d+\)/,
    );
    const counts = /decisions \(cost\): (\d+) compacted, (\d+) skipped, (\d+) waited/.exec(r.stdout);
    expect(counts).not.toBeNull();
    const compacted = Number(counts![1]);
    expect(compacted).toBe(r.stdout.split("\n").filter((l) => l.startsWith("  decision compacted")).length);
    expect(r.stdout).toMatch(new RegExp(`done: ${compacted} compactions;`));
    const bad = spawnSync(
      process.execPath,
      ["--import", "tsx", "--conditions=development", "examples/agent-loop/main.ts"],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, CC_DEMO_POLICY: "greedy" },
      },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'agent-loop demo: CC_DEMO_POLICY: expected one of threshold, hermes, cost, got "greedy"',
    );
    expect(parsePolicy(" hermes ")).toEqual(E.right("hermes"));
    expect(parsePolicy(undefined)).toEqual(E.right(undefined));
  }, 300_000);
});
