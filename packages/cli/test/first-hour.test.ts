// What a new user meets in the first hour, as real processes: exit codes and messages.
import { formatScore } from "../src/command/score.js";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/command/exit-codes.js";
import { runCli } from "./run-cli.js";

const fixture = fileURLToPath(new URL("./fixtures/invalid-utf8.json", import.meta.url));

let dir: string;
let small: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cc-first-hour-"));
  const chat = [{ role: "system", content: "You are a coding agent. ".repeat(50) }];
  for (let i = 0; i < 20; i++) {
    chat.push({ role: "user", content: `Step ${i}: read src/m${i}.py ${"explain the parser ".repeat(30)}` });
    chat.push({ role: "assistant", content: `Module ${i} raises KeyError ${"the header is missing ".repeat(20)}` });
  }
  small = join(dir, "small.json");
  writeFileSync(small, JSON.stringify(chat));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cc-compact first-hour behaviour (real processes)", { timeout: 300_000 }, () => {
  it("`cc-compact help` is the help command, the same text as --help", async () => {
    const [word, flag] = await Promise.all([runCli(["help"]), runCli(["--help"])]);
    expect(word.code, word.stderr).toBe(ExitCode.ok);
    expect(word.stdout).toBe(flag.stdout);
    expect(word.stdout).toContain("Usage:");
    expect(word.stderr).toBe("");
  });

  it("a negative number for a numeric option is an invalid value, not an ambiguous argument", async () => {
    const cases: [readonly string[], string][] = [
      [["-b", "-5"], "-b: expected a positive integer, got -5"],
      [["--budget", "-5"], "--budget: expected a positive integer, got -5"],
      [["-b", "0"], "-b: expected a positive integer, got 0"],
      [["-p", "-1"], "-p: expected a non-negative integer, got -1"],
      [["search", "-i", "x.db", "q", "-k", "-3"], "-k: expected a positive integer, got -3"],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      expect(r.code, args.join(" ")).toBe(ExitCode.usage);
      expect(r.stderr).toContain(`cc-compact: ${message}\n`);
      expect(r.stderr).not.toContain("ambiguous");
      expect(r.stdout).toBe("");
    }
  });

  it("search and expand of a missing index file exit 7 and never create the file", async () => {
    const typo = join(dir, "jornal.db");
    const s = await runCli(["search", "-i", typo, "parser"]);
    expect(s.code, s.stderr).toBe(ExitCode.indexMissing);
    expect(s.stderr).toContain(`cc-compact: search: no index at ${typo} (the file does not exist`);
    expect(s.stdout).toBe("");
    const x = await runCli(["expand", "-i", typo, "u0123456789abcdef"]);
    expect(x.code, x.stderr).toBe(ExitCode.indexMissing);
    expect(x.stderr).toContain(`cc-compact: expand: no index at ${typo}`);
    expect(existsSync(typo)).toBe(false);
  });

  it("the id search prints expands without --namespace; --raw prints the original only; an id in two namespaces needs -n", async () => {
    const index = join(dir, "ns.db");
    const w = await runCli([small, "-s", "hierarchical", "-b", "900", "-p", "4", "-i", index, "-n", "proj", "-q"]);
    expect(w.code, w.stderr).toBe(ExitCode.ok);
    const s = await runCli(["search", "-i", index, "parser", "-k", "1"]);
    expect(s.code, s.stderr).toBe(ExitCode.ok);
    const [hit] = JSON.parse(s.stdout) as { id: string; namespace: string; score: number }[];
    expect(hit?.namespace).toBe("proj");
    expect(s.stderr).toContain(`1. ${hit!.id} [namespace proj,`);
    // The line's score has at most 3 significant digits; the JSON keeps the exact number.
    expect(s.stderr).toContain(`, score ${formatScore(hit!.score)}] `);
    expect(s.stderr).toMatch(/, score (\d+(\.\d+)?|\d\.\d\de[+-]\d+)\] /);
    const x = await runCli(["expand", "-i", index, hit!.id]);
    expect(x.code, x.stderr).toBe(ExitCode.ok);
    const entry = JSON.parse(x.stdout) as { content: string; namespace: string };
    expect(entry.namespace).toBe("proj");
    const raw = await runCli(["expand", "-i", index, hit!.id, "--raw"]);
    expect(raw.code, raw.stderr).toBe(ExitCode.ok);
    expect(raw.stdout).toBe(entry.content);
    expect(raw.stdout).toContain("explain the parser");
    const wrongNs = await runCli(["expand", "-i", index, hit!.id, "-n", "default"]);
    expect(wrongNs.code).toBe(ExitCode.notFound);
    const again = await runCli([small, "-s", "hierarchical", "-b", "900", "-p", "4", "-i", index, "-n", "other", "-q"]);
    expect(again.code, again.stderr).toBe(ExitCode.ok);
    const both = await runCli(["expand", "-i", index, hit!.id]);
    expect(both.code).toBe(ExitCode.usage);
    expect(both.stderr).toContain("is in 2 namespaces (other, proj): choose one with -n");
    expect((await runCli(["expand", "-i", index, hit!.id, "-n", "other", "--raw"])).stdout).toBe(entry.content);
    const none = await runCli(["expand", "-i", index, "u0000000000000000"]);
    expect(none.code).toBe(ExitCode.notFound);
    expect(none.stderr).toContain('no entry "u0000000000000000" in any namespace');
  });

  it("--raw belongs to expand only", async () => {
    const r = await runCli([small, "--raw"]);
    expect(r.code).toBe(ExitCode.usage);
    expect(r.stderr).toContain("--raw: only expand takes it");
  });

  it("an unreachable --provider-url without --model exits 4 with the reason (listing models failed)", async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve())); // nothing listens there now
    const r = await runCli([small, "-b", "900", "-p", "4", "--provider-url", `http://127.0.0.1:${port}/v1`]);
    expect(r.code, r.stderr).toBe(ExitCode.provider);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`cc-compact: the provider at http://127.0.0.1:${port}/v1 failed:`);
    expect(r.stderr).toMatch(/listing models: Provider\w+Error/);
  });

  it("budget NOT met exits 8: the output is written and the report says why, once", async () => {
    for (const strategy of ["lcm", "hierarchical"]) {
      const r = await runCli([small, "-b", "400", "-p", "4", "-s", strategy]);
      expect(r.code, r.stderr).toBe(ExitCode.budgetNotMet);
      expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
      expect(r.stderr.match(/budget (NOT )?met/g)).toEqual(["budget NOT met"]);
      expect(r.stderr).toMatch(/note {6}\d+ tokens exceed the budget of 400 by \d+/);
    }
    const met = await runCli([small, "-b", "900", "-p", "4", "-s", "hierarchical"]);
    expect(met.code, met.stderr).toBe(ExitCode.ok);
    expect(met.stderr.match(/budget (NOT )?met/g)).toEqual(["budget met"]);
    expect(met.stderr).not.toContain("exceed");
  });

  it("invalid UTF-8 in a transcript is a warning naming the byte offset of the first bad sequence", async () => {
    const bytes = readFileSync(fixture);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(bytes)).toThrow();
    const offset = bytes.indexOf(0xe9);
    const r = await runCli([fixture]);
    expect(r.code, r.stderr).toBe(ExitCode.ok);
    expect(r.stderr).toContain(
      `warning   ${fixture}: invalid UTF-8 at byte offset ${offset}; 1 character replaced by U+FFFD`,
    );
    expect(r.stdout).toContain("Fix the caf\uFFFD menu parser");
    const piped = await runCli(["-"], bytes);
    expect(piped.code, piped.stderr).toBe(ExitCode.ok);
    expect(piped.stderr).toContain(
      `warning   stdin: invalid UTF-8 at byte offset ${offset}; 1 character replaced by U+FFFD`,
    );
    const valid = await runCli(["-"], new TextEncoder().encode(JSON.stringify([{ role: "user", content: "café ✓" }])));
    expect(valid.code, valid.stderr).toBe(ExitCode.ok);
    expect(valid.stderr).not.toContain("invalid UTF-8");
  });
});
