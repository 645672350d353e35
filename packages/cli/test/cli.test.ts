import { describe, it, expect, beforeAll, afterAll } from "vitest";
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCode } from "@cc/cli";
import { runCli, type CliRun } from "./run-cli.js";
import { trajectoriesDir, trajectoryFiles } from "./trajectories.js";

const roles = new Set(["system", "user", "assistant", "tool"]);
const parseOut = (r: CliRun): { role: string; content: string | null }[] =>
  JSON.parse(r.stdout) as { role: string; content: string | null }[];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cc-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cc-compact as a process", { timeout: 300_000 }, () => {
  it("--help prints usage and the exit codes", async () => {
    const r = await runCli(["--help"]);
    expect(r.code).toBe(ExitCode.ok);
    expect(r.stdout).toContain("Usage:");
    // The compact defaults differ from createContextManager's, and the help says why.
    expect(r.stdout).toContain(
      "The compact defaults are those of @cc/lcm's compactor, not createContextManager's\n(strategy hierarchical, threshold 0.8, preserveLast 6, maxTokens required)",
    );
    expect(r.stdout).toContain(
      "Exit codes: 0 ok, 1 internal error, 2 usage, 3 input, 4 provider, 5 index, 6 not found,\n7 index file missing, 8 budget not met (the output is still written).",
    );
  });

  it("compacts every shared trajectory with lcm: JSON on stdout, a report on stderr", async () => {
    const queue = [...trajectoryFiles];
    const results: [string, CliRun][] = [];
    const worker = async (): Promise<void> => {
      for (let f = queue.shift(); f !== undefined; f = queue.shift())
        results.push([f, await runCli([trajectoriesDir + f, "--budget", "3000", "--preserve-last", "4"])]);
    };
    await Promise.all([worker(), worker()]);
    expect(results.length).toBe(trajectoryFiles.length);
    for (const [f, r] of results) {
      expect(r.code, `${f}: ${r.stderr}`).toBe(
        r.stderr.includes("budget NOT met") ? ExitCode.budgetNotMet : ExitCode.ok,
      );
      const out = parseOut(r);
      expect(out.length).toBeGreaterThan(0);
      for (const m of out) expect(roles.has(m.role)).toBe(true);
      expect(out[0]?.role).toBe("system");
      expect(r.stderr).toContain(`${f} (traj,`);
      expect(r.stderr).toMatch(/usage {5}\d+ tokens = [\d.]+% of 3000 → pressure (none|soft|hard)/);
      expect(r.stderr).toMatch(/budget (met|NOT met)/);
    }
  }, 600_000);

  it("hierarchical eviction writes the index; search finds it and expand returns the original", async () => {
    const index = join(dir, "journal.db");
    const file = trajectoriesDir + "function_calling_simple.traj";
    const r = await runCli([file, "-s", "hierarchical", "-b", "3000", "-p", "4", "-i", index]);
    expect(r.code, r.stderr).toBe(ExitCode.ok);
    expect(r.stderr).toMatch(/evicted {3}\d+ units to the index/);
    const out = parseOut(r);
    expect(out.some((m) => (m.content ?? "").includes("Evicted to the journal"))).toBe(true);
    const s = await runCli(["search", "-i", index, "missing_colon"]);
    expect(s.code, s.stderr).toBe(ExitCode.ok);
    const hits = JSON.parse(s.stdout) as { id: string }[];
    expect(hits.length).toBeGreaterThan(0);
    const x = await runCli(["expand", "-i", index, hits[0]!.id]);
    expect(x.code, x.stderr).toBe(ExitCode.ok);
    expect((JSON.parse(x.stdout) as { content: string }).content.length).toBeGreaterThan(0);
    const missing = await runCli(["expand", "-i", index, "no-such-id"]);
    expect(missing.code).toBe(ExitCode.notFound);
    expect(missing.stdout).toBe("");
  });

  it("malformed JSONL names the line and leaves stdout empty", async () => {
    const r = await runCli(["--format", "jsonl"], '{"role":"user","content":"a"}\n{"role":"assistant","content":\n');
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("stdin:2:");
    expect(r.stderr).toContain("malformed JSON");
  });

  it("an invalid message names its index and field", async () => {
    const r = await runCli(
      [],
      JSON.stringify([
        { role: "user", content: "a" },
        { role: "tool", content: "x" },
      ]),
    );
    expect(r.code).toBe(ExitCode.input);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("messages[1].tool_call_id: required on a tool message");
  });

  it("usage errors exit 2: unknown option, bad number, soft ≥ hard", async () => {
    for (const args of [
      ["--bogus"],
      ["--budget", "lots"],
      ["--soft", "0.9", "--hard", "0.5"],
      ["--budget", "NaN"],
      ["search", "x"],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(" ")).toBe(ExitCode.usage);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("cc-compact:");
    }
  });

  it("a missing file is an input error; an index that cannot open is an index error", async () => {
    const a = await runCli([join(dir, "nope.json")]);
    expect(a.code).toBe(ExitCode.input);
    const b = await runCli(["search", "-i", dir, "x"]);
    expect(b.code).toBe(ExitCode.index);
    expect(b.stdout).toBe("");
  });

  it("a provider that rejects the key exits 4 with no output (real HTTP on loopback)", async () => {
    let calls = 0;
    const server: Server = createServer((_req, res) => {
      calls++;
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad key" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await runCli(
        [
          trajectoriesDir + "function_calling_simple.traj",
          "-b",
          "3000",
          "-p",
          "4",
          "--provider-url",
          `http://127.0.0.1:${port}/v1`,
          "--model",
          "m",
        ],
        undefined,
        {
          CC_PROVIDER_KEY: "wrong",
        },
      );
      expect(r.code, r.stderr).toBe(ExitCode.provider);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("ProviderAuthError");
      expect(calls).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
