import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import type { Message } from "@cc/messages";
import { messageUnits } from "@cc/messages";
import { readTranscript } from "@cc/cli";
import { bashBlocks, readMini } from "../../src/formats/mini.js";
import { parseCommand } from "../../src/command/args.js";

/** A small text-action run written for this test (the shape of mini-swe-agent 1.x). */
const textRun = {
  instance_id: "demo__demo-1",
  trajectory_format: "mini-swe-agent-1",
  info: { exit_status: "Submitted" },
  messages: [
    { role: "system", content: "You run one bash command per reply." },
    { role: "user", content: "<pr_description>\nFix parse() in src/app.py\n</pr_description>" },
    { role: "assistant", content: "THOUGHT: look first.\n\n```bash\nls src\n```", extra: { response: "{'id': 'x'}" } },
    { role: "user", content: "<returncode>0</returncode>\n<output>\napp.py\n</output>" },
    { role: "assistant", content: "Two at once:\n```bash\ncat a\n```\n```bash\ncat b\n```" },
    { role: "user", content: "Please always provide EXACTLY ONE action in triple backticks." },
    {
      role: "assistant",
      content: "THOUGHT: submit.\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff\n```",
    },
    { role: "user", content: "diff --git a/src/app.py b/src/app.py" },
  ],
};

/** A small tool-calling run written for this test (the shape of mini-swe-agent 2.x). */
const toolRun = {
  trajectory_format: "mini-swe-agent-1.1",
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "<pr_description>Fix parse()</pr_description>" },
    {
      role: "assistant",
      content: "",
      reasoning_content: "The bug is probably in parse.",
      tool_calls: [
        {
          index: 0,
          id: "call_00_abc",
          type: "function",
          function: { name: "bash", arguments: '{"command": "grep -n parse src/app.py"}' },
        },
      ],
      function_call: null,
      extra: { timestamp: "1775795495.42" },
    },
    {
      role: "tool",
      tool_call_id: "call_00_abc",
      content: "<returncode>0</returncode>\n<output>\n12:def parse(\n</output>",
      extra: { returncode: 0, timestamp: 1775795495.69 },
    },
    { role: "exit", content: "diff --git a/src/app.py b/src/app.py" },
  ],
};

const right = <A>(r: E.Either<unknown, A>): A => {
  if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
  return r.right;
};

describe("mini-swe-agent text actions", () => {
  it("turns the one fenced bash block into a tool call answered by the next user message", () => {
    const t = right(readTranscript(JSON.stringify(textRun), { source: "demo.traj.json" }));
    expect(t.format).toBe("mini-swe-agent");
    expect(t.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
    ]);
    const a = t.messages[2] as Extract<Message, { role: "assistant" }>;
    expect(a.content).toBe("THOUGHT: look first.");
    expect(a.toolCalls).toEqual([{ id: "bash-2", name: "bash", arguments: JSON.stringify({ command: "ls src" }) }]);
    expect(t.messages[3]).toMatchObject({
      role: "tool",
      toolCallId: "bash-2",
      content: "<returncode>0</returncode>\n<output>\napp.py\n</output>",
    });
    // Two blocks: no call; the harness's format reminder stays a user message.
    expect(t.messages[4]).toEqual({ role: "assistant", content: textRun.messages[4]!.content });
    // The submit command's output is the observation of the last action.
    expect(t.messages[7]).toMatchObject({
      role: "tool",
      toolCallId: "bash-6",
      content: "diff --git a/src/app.py b/src/app.py",
    });
    expect(t.warnings).toEqual([]);
    // Pair-safe units: every call travels with its result.
    expect(messageUnits(t.messages).length).toBeGreaterThan(0);
  });

  it("an action without an observation is kept as the original text, with a warning", () => {
    const run = { ...textRun, messages: textRun.messages.slice(0, 3) };
    const t = right(readMini(JSON.stringify(run), "x"));
    expect(t.messages[2]).toEqual({ role: "assistant", content: textRun.messages[2]!.content });
    expect(t.warnings).toEqual(["end of messages: the bash action bash-2 has no observation; kept as text"]);
  });

  it("bashBlocks finds each fenced block and the text around them", () => {
    expect(bashBlocks("T\n```bash\na && b\n```\nafter")).toEqual({ commands: ["a && b"], rest: "T\n\nafter" });
    expect(bashBlocks("no action").commands).toEqual([]);
  });
});

describe("mini-swe-agent tool calls", () => {
  it("reads tool_calls and tool results, keeps reasoning_content, takes timestamps, skips exit with a warning", () => {
    const t = right(readTranscript(JSON.stringify(toolRun), { source: "run.traj.json" }));
    expect(t.format).toBe("mini-swe-agent");
    expect(t.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    const a = t.messages[2] as Extract<Message, { role: "assistant" }>;
    // DeepSeek's `index` inside the call is kept (a call keeps every field it came with).
    expect(a.toolCalls?.[0]).toEqual({
      id: "call_00_abc",
      name: "bash",
      arguments: '{"command": "grep -n parse src/app.py"}',
      extra: { index: 0 },
    });
    expect(a.extra?.["reasoning_content"]).toBe("The bug is probably in parse.");
    expect(a.timestamp).toBe(1775795495420);
    expect(t.messages[3]).toMatchObject({ role: "tool", toolCallId: "call_00_abc", timestamp: 1775795495690 });
    expect(t.warnings).toEqual([
      'messages[4]: role "exit" (the run\'s submitted patch) is not a chat message; skipped',
    ]);
  });

  it("a mini-swe-agent trajectory saved as .traj is read as mini-swe-agent; a SWE-agent one stays traj", () => {
    expect(right(readTranscript(JSON.stringify(toolRun), { source: "run.traj" })).format).toBe("mini-swe-agent");
    const swe = { history: [{ role: "user", content: "fix it" }] };
    expect(right(readTranscript(JSON.stringify(swe), { source: "run.traj" })).format).toBe("traj");
  });

  it("the CLI takes --format mini-swe-agent and refuses an unknown format naming the accepted ones", () => {
    const ok = parseCommand(["--format", "mini-swe-agent", "run.traj.json"]);
    expect(E.isRight(ok) && ok.right._tag === "Compact" && ok.right.format).toBe("mini-swe-agent");
    const bad = parseCommand(["--format", "mini", "run.traj.json"]);
    expect(E.isLeft(bad) && JSON.stringify(bad.left)).toContain("mini-swe-agent");
  });

  it("a document that is not a mini-swe-agent trajectory is a typed error when the format is forced", () => {
    const r = readTranscript(JSON.stringify({ messages: [] }), { format: "mini-swe-agent", source: "x.json" });
    expect(E.isLeft(r) && r.left._tag).toBe("UnrecognisedFormat");
    expect(E.isLeft(readTranscript("", { format: "mini-swe-agent" }))).toBe(true);
  });
});
