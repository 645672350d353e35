import * as E from "fp-ts/lib/Either.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodePruneOptions, pruneToolResults } from "@cc/session";
import { describeToolResult } from "@cc/test-support/session";
import { type Message, type ToolCall, type ToolMessage } from "@cc/messages";
import { conversationArb } from "./conversation.js";
import { runs } from "./support.js";
import { readTrajectory } from "./trajectory.js";

const call = (name: string, args: unknown, id = "c1"): ToolCall => ({
  id,
  name,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
});
const result = (content: string, id = "c1"): ToolMessage => ({ role: "tool", content, toolCallId: id });
const lines = (n: number, last = `line ${n - 1}`): string =>
  [...Array.from({ length: n - 1 }, (_, i) => `line ${i}`), last].join("\n");

const deepFreeze = <T>(value: T): T => {
  if (typeof value === "object" && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
};

describe("describeToolResult", () => {
  it("a shell command: what ran, its exit status and the size of its output", () => {
    expect(describeToolResult(call("bash", { command: "npm test" }), result(lines(47, "Exit code: 0")))).toBe(
      "[bash] ran `npm test` → exit 0, 47 lines output",
    );
    expect(describeToolResult(call("execute_cmd", { cmd: "cargo build" }), result(lines(3)))).toBe(
      "[execute_cmd] ran `cargo build` → 3 lines output",
    );
  });
  it("the last exit status wins", () => {
    expect(
      describeToolResult(call("bash", { command: "make" }), result("exit code 0\n...\nexited with code 2\n")),
    ).toBe("[bash] ran `make` → exit 2, 3 lines output");
  });
  it("a file read: path and size", () => {
    expect(describeToolResult(call("read_file", { path: "src/a.ts" }), result("x".repeat(5120)))).toBe(
      "[read_file] read src/a.ts (5120 chars)",
    );
  });
  it("search, fetch, edit and unknown tools get a line derived from their call", () => {
    expect(describeToolResult(call("grep", { pattern: "TODO", path: "src" }), result(lines(12)))).toBe(
      "[grep] searched `TODO` → 12 lines output",
    );
    expect(describeToolResult(call("fetch", { url: "https://example.com/x" }), result("y".repeat(900)))).toBe(
      "[fetch] fetched https://example.com/x (900 chars)",
    );
    expect(
      describeToolResult(call("str_replace_editor", { command: "view", path: "/repo/a.py" }), result(lines(40))),
    ).toBe("[str_replace_editor] view /repo/a.py → 40 lines output (" + lines(40).length + " chars)");
    expect(describeToolResult(call("lookup", { table: "users", limit: 5 }), result("z"))).toBe(
      "[lookup] table=users, limit=5 → 1 lines output (1 chars)",
    );
  });
  it("copes with malformed arguments, a missing call and odd Unicode", () => {
    expect(describeToolResult(call("bash", "{not json"), result(lines(2)))).toBe("[bash] 2 lines output");
    expect(describeToolResult(undefined, { role: "tool", content: "abc", toolCallId: "tc_9", name: "mystery" })).toBe(
      "[mystery #tc_9] 1 lines output (3 chars)",
    );
    const line = describeToolResult(
      call("bash", { command: `echo "中文 🧠 \ud800"\n&& ls ${"x".repeat(200)}` }),
      result("ok"),
    );
    expect(line.startsWith('[bash] ran `echo "中文 🧠 \ud800" && ls xxx')).toBe(true);
    expect(line).not.toContain("\n");
    expect(line.length).toBeLessThan(140);
    expect(/[\ud800-\udbff]$/.test(line.split("`")[1]!.slice(0, -1))).toBe(false);
  });
});

describe("pruneToolResults", () => {
  const history: Message[] = [
    { role: "user", content: "run the tests" },
    { role: "assistant", content: "", toolCalls: [call("bash", { command: "npm test" })] },
    result(lines(300, "exit code 1")),
    { role: "assistant", content: "3 failures" },
    { role: "user", content: "and now?" },
    { role: "assistant", content: "", toolCalls: [call("bash", { command: "npm test" }, "c2")] },
    result(lines(300, "exit code 0"), "c2"),
  ];

  it("prunes oversized results of earlier turns only, leaving the current turn intact", () => {
    const { messages, pruned } = pruneToolResults(history, { maxChars: 2000, protectTurns: 1, protectResults: 0 });
    expect(messages[2]).toEqual({
      role: "tool",
      toolCallId: "c1",
      content: "[bash] ran `npm test` → exit 1, 300 lines output",
    });
    expect(messages[6]).toBe(history[6]);
    expect(pruned).toEqual([
      {
        index: 2,
        toolCallId: "c1",
        tool: "bash",
        originalChars: history[2]!.content.length,
        line: messages[2]!.content,
      },
    ]);
  });

  it("protectTurns 0 prunes the current turn too; small results are never pruned", () => {
    expect(
      pruneToolResults(history, { maxChars: 2000, protectTurns: 0, protectResults: 0 }).pruned.map((p) => p.index),
    ).toEqual([2, 6]);
    expect(pruneToolResults(history, { maxChars: 100_000, protectTurns: 0, protectResults: 0 }).pruned).toEqual([]);
  });

  it("never modifies the messages it is given (the stored message is unchanged)", () => {
    const frozen = deepFreeze(structuredClone(history));
    const copy = structuredClone(frozen);
    pruneToolResults(frozen, { maxChars: 200, protectTurns: 0, protectResults: 0 });
    expect(frozen).toEqual(copy);
  });

  it("a result whose call id repeats across turns is described by its own call", () => {
    const repeated: Message[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: "", toolCalls: [call("read_file", { path: "one.ts" })] },
      result("1".repeat(3000)),
      { role: "user", content: "b" },
      { role: "assistant", content: "", toolCalls: [call("read_file", { path: "two.ts" })] },
      result("2".repeat(3000)),
      { role: "user", content: "c" },
    ];
    expect(
      pruneToolResults(repeated)
        .messages.filter((m) => m.role === "tool")
        .map((m) => m.content),
    ).toEqual(["[read_file] read one.ts (3000 chars)", "[read_file] read two.ts (3000 chars)"]);
  });

  it("property: same length, only earlier oversized tool results change, each to a shorter line, input untouched", () => {
    fc.assert(
      fc.property(
        conversationArb(6),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        (messages, maxChars, protectTurns, protectResults) => {
          const before = structuredClone(messages);
          const { messages: out, pruned } = pruneToolResults(messages, { maxChars, protectTurns, protectResults });
          const resultIdx = messages.flatMap((m, i) => (m.role === "tool" ? [i] : []));
          const resultLimit =
            protectResults === 0 ? messages.length : (resultIdx[resultIdx.length - protectResults] ?? 0);
          expect(messages).toEqual(before);
          expect(out).toHaveLength(messages.length);
          const userIdx = messages.flatMap((m, i) => (m.role === "user" ? [i] : []));
          const limit = protectTurns === 0 ? messages.length : (userIdx[userIdx.length - protectTurns] ?? 0);
          const prunedAt = new Set(pruned.map((p) => p.index));
          out.forEach((m, i) => {
            if (!prunedAt.has(i)) return expect(m).toBe(messages[i]);
            const original = messages[i]!;
            expect(original.role).toBe("tool");
            expect(i).toBeLessThan(Math.min(limit, resultLimit));
            expect(original.content.length).toBeGreaterThan(maxChars);
            expect(m.content.length).toBeLessThan(original.content.length);
            expect(m.role === "tool" && original.role === "tool" && m.toolCallId === original.toolCallId).toBe(true);
          });
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it("on a real SWE-agent trajectory every pruned result names its tool and stays one line", () => {
    const { messages, unreadable } = readTrajectory(
      "replay__marshmallow-code__marshmallow-1867__function_calling__install-1__marshmallow-code__marshmallow-1867.traj",
    );
    expect(unreadable).toBe(0);
    const tools = messages.filter((m) => m.role === "tool");
    expect(tools.length).toBeGreaterThan(5);
    // One user turn for the whole run: protect by the newest results instead of by turn.
    expect(pruneToolResults(messages, { maxChars: 500, protectTurns: 1, protectResults: 0 }).pruned).toEqual([]);
    const { messages: out, pruned } = pruneToolResults(messages, { maxChars: 500, protectTurns: 0, protectResults: 2 });
    const lastTwo = messages.flatMap((m, i) => (m.role === "tool" ? [i] : [])).slice(-2);
    for (const i of lastTwo) expect(out[i]).toBe(messages[i]);
    expect(pruned.length).toBeGreaterThan(0);
    for (const p of pruned) {
      expect(p.line).toMatch(/^\[[\w-]+\] /);
      expect(p.line).not.toContain("\n");
      expect(out[p.index]!.content).toBe(p.line);
    }
    expect(pruned.map((p) => p.tool).filter((t) => t !== "tool").length).toBe(pruned.length);
  });
});

describe("decodePruneOptions", () => {
  it("applies defaults and names the bad field", () => {
    expect(decodePruneOptions(undefined)).toEqual(E.right({ maxChars: 2000, protectTurns: 1, protectResults: 0 }));
    expect(decodePruneOptions({ maxChars: 4000 })).toEqual(
      E.right({ maxChars: 4000, protectTurns: 1, protectResults: 0 }),
    );
    for (const bad of [Number.NaN, -5, 10, 1e20, "2000", 2000.5]) {
      expect(decodePruneOptions({ maxChars: bad })).toMatchObject(
        E.left({ _tag: "InvalidOptions", subject: "prune options", problems: [{ path: "maxChars" }] }),
      );
    }
    expect(decodePruneOptions({ protectTurns: -1 })).toMatchObject(E.left({ problems: [{ path: "protectTurns" }] }));
    expect(decodePruneOptions("yes")).toMatchObject(
      E.left({ message: 'invalid prune options: value: expected an object like { maxChars: 2000 }, got "yes"' }),
    );
  });

  it("refuses a typo key, NaN, ±Infinity and negatives, naming the field", () => {
    expect(decodePruneOptions({ maxChar: 4000 })).toMatchObject(
      E.left({ problems: [{ message: "maxChar: unknown field (did you mean maxChars?)" }] }),
    );
    for (const key of ["maxChars", "protectTurns", "protectResults"]) {
      for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
        const r = decodePruneOptions({ [key]: bad });
        expect(r).toMatchObject(
          E.left({
            _tag: "InvalidOptions",
            problems: [{ path: key, message: expect.stringContaining(`got ${String(bad)}`) }],
          }),
        );
      }
    }
  });
});
