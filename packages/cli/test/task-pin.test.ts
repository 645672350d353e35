// The task of a real agent run stays in the compacted output: cc-compact (in process) on a
// SWE-agent trajectory of the repository's corpus (pydicom-1458: a system prompt, a ~4,800-token
// demonstration, then the ~1,000-token issue text the agent works from).
import { readFileSync } from "node:fs";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { main, readTranscript, type CliIo } from "@cc/cli";
import { fromOpenAIMessages, type Message } from "@cc/messages";
import { ExitCode } from "../src/command/exit-codes.js";
import { trajectoriesDir, trajectoryFiles } from "./trajectories.js";

const file = `${trajectoriesDir}${trajectoryFiles.find((f) => f.includes("pydicom__pydicom-1458"))!}`;

async function compact(
  args: readonly string[],
): Promise<{ readonly code: number; readonly out: readonly Message[]; readonly report: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    readStdin: () => Promise.resolve(""),
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    stderrIsTTY: false,
    env: {},
    now: () => 1_750_000_000_000,
  };
  const code = await main([file, ...args], io);
  const parsed = fromOpenAIMessages(JSON.parse(stdout === "" ? "[]" : stdout));
  return { code, out: E.isRight(parsed) ? parsed.right.messages : [], report: stderr };
}

const read = readTranscript(readFileSync(file, "utf8"), { source: file });
const messages = E.isRight(read) ? read.right.messages : [];
// The task: the last of the user messages that open the run (the issue, after the demonstration).
const task = messages[messages.findIndex((m) => m.role === "assistant") - 1];
const text = (m: Message | undefined): string =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content);

describe("cc-compact keeps the task of a real run", () => {
  it("the trajectory opens with a demonstration, then the issue text the agent works from", () => {
    expect(text(task)).toContain("Here's the issue text:\nISSUE:\nPixel Representation attribute should be optional");
    expect(messages.filter((m) => m.role === "user").findIndex((m) => m === task)).toBe(1);
    expect(messages.length).toBeGreaterThan(20);
  });

  for (const strategy of ["lcm", "hierarchical"] as const) {
    it(`${strategy}: the issue text stays verbatim by default, right after the system prompt; --unpin-task lets it go`, async () => {
      const pinned = await compact(["-b", "6000", "-s", strategy, "-q"]);
      expect(pinned.code, pinned.report).toBe(ExitCode.ok);
      expect(pinned.out.length).toBeLessThan(messages.length);
      const kept = pinned.out.filter((m) => m.role === "user" && text(m) === text(task));
      expect(kept).toHaveLength(1);
      const firstNonSystem = pinned.out.findIndex((m) => m.role !== "system");
      // lcm: system, task, summary, …; hierarchical: system, note, task, …
      expect(pinned.out.indexOf(kept[0]!) - firstNonSystem).toBeLessThanOrEqual(1);

      const unpinned = await compact(["-b", "6000", "-s", strategy, "-q", "--unpin-task"]);
      expect(unpinned.code, unpinned.report).toBe(ExitCode.ok);
      expect(unpinned.out.some((m) => m.role === "user" && text(m) === text(task))).toBe(false);
    });
  }

  it("a task over half the budget is compacted like the rest, and the report says so", async () => {
    const r = await compact(["-b", "1500", "-s", "lcm"]);
    expect(r.out.some((m) => m.role === "user" && text(m) === text(task))).toBe(false);
    expect(r.report).toMatch(/the task \(\d+ tokens\) is more than half the target/);
  });
});
