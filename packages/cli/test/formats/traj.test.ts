import { describe, it, expect } from "vitest";
import { readFileSync } from "node:fs";
import * as E from "fp-ts/lib/Either.js";
import type { Message } from "@cc/messages";
import { readTranscript, readTraj } from "@cc/cli";
import { trajectoriesDir, trajectoryFiles } from "../trajectories.js";

/** Every tool result answers an open call of an earlier assistant message; no call id is open twice. */
function pairedToolCalls(messages: readonly Message[]): boolean {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "assistant")
      for (const c of m.toolCalls ?? []) {
        if (open.has(c.id)) return false;
        open.add(c.id);
      }
    if (m.role === "tool") {
      if (!open.has(m.toolCallId)) return false;
      open.delete(m.toolCallId);
    }
  }
  return true;
}

describe("SWE-agent .traj reader on every shared trajectory", () => {
  it("finds the shared trajectories", () => {
    expect(trajectoryFiles.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of trajectoryFiles) {
    it(file, () => {
      const text = readFileSync(trajectoriesDir + file, "utf8");
      const raw = JSON.parse(text) as { history: { role: string; content: unknown; tool_calls?: unknown }[] };
      const r = readTranscript(text, { source: file });
      if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
      const { messages, warnings, format } = r.right;
      expect(format).toBe("traj");
      expect(warnings).toEqual([]);
      // one message per history entry, same roles, same text
      expect(messages.map((m) => m.role)).toEqual(raw.history.map((h) => h.role));
      expect(messages.map((m) => m.content)).toEqual(raw.history.map((h) => h.content));
      expect(messages[0]?.role).toBe("system");
      expect(pairedToolCalls(messages)).toBe(true);
      const calls = raw.history.filter((h) => Array.isArray(h.tool_calls)).length;
      expect(messages.filter((m) => m.role === "assistant" && m.toolCalls !== undefined).length).toBe(calls);
      for (const m of messages) if (m.role === "tool") expect(m.name).toMatch(/^\w+$/);
    });
  }
});

const call = (id: string, name = "bash", args = '{"command":"ls"}') => ({
  function: { arguments: args, name },
  id,
  type: "function",
});
const traj = (history: unknown[]) => JSON.stringify({ history });

describe("SWE-agent .traj reader on odd input", () => {
  it("parses tool_calls and tool_call_ids given as Python-repr strings", () => {
    const text = traj([
      { role: "system", content: "sys" },
      {
        role: "assistant",
        content: "look",
        tool_calls: `[{'function': {'arguments': '{"command":"ls -F"}', 'name': 'bash'}, 'id': 'call_1', 'type': 'function'}]`,
      },
      { role: "tool", content: "a.py", tool_call_ids: "['call_1']" },
    ]);
    expect(readTraj(text, "t.traj")).toEqual(
      E.right({
        messages: [
          { role: "system", content: "sys" },
          {
            role: "assistant",
            content: "look",
            toolCalls: [{ id: "call_1", name: "bash", arguments: '{"command":"ls -F"}' }],
          },
          { role: "tool", content: "a.py", toolCallId: "call_1", name: "bash" },
        ],
        warnings: [],
      }),
    );
  });

  it("reports odd entries as warnings naming the entry and field, and keeps everything it can", () => {
    const text = traj([
      42,
      { role: "narrator", content: "x" },
      { role: "user", content: { nested: true } },
      { role: "assistant", content: [{ type: "text", text: "part" }], tool_calls: "[{'id': oops" },
      { role: "assistant", content: "b", tool_calls: [call("c1"), { id: "c2" }, call("c1")] },
      { role: "tool", content: "orphan", tool_call_ids: ["nope"] },
      { role: "tool", content: "ok", tool_call_ids: ["c1"] },
      { role: "assistant", content: null, tool_calls: [{ id: "c3", function: { name: "edit" } }] },
    ]);
    const r = readTraj(text, "odd.traj");
    if (E.isLeft(r)) throw new Error("expected right");
    expect(r.right.messages).toEqual([
      { role: "assistant", content: "part" },
      { role: "assistant", content: "b", toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"ls"}' }] },
      { role: "user", content: "orphan" },
      { role: "tool", content: "ok", toolCallId: "c1", name: "bash" },
      { role: "assistant", content: "", toolCalls: [{ id: "c3", name: "edit", arguments: "{}" }] },
    ]);
    const w = r.right.warnings.join("\n");
    expect(w).toContain("history[0]: not an object");
    expect(w).toContain('history[1].role: "narrator"');
    expect(w).toContain("history[2].content: not text");
    expect(w).toContain("history[3].tool_calls: not a Python literal");
    expect(w).toContain("history[4].tool_calls[1]: not a function call");
    expect(w).toContain('history[4].tool_calls[2].id: call id "c1" is already awaiting a result');
    expect(w).toContain("history[5].tool_call_ids: no matching earlier tool call; kept as a user message");
    expect(w).toContain('tool call "c3" (edit) has no result');
  });

  it("keeps lone surrogates, CJK and emoji exactly", () => {
    const content = "修复 \ud800 bug 🚀 in 文件.py";
    const r = readTraj(traj([{ role: "user", content }]), "u.traj");
    expect(r).toEqual(E.right({ messages: [{ role: "user", content }], warnings: [] }));
  });

  it("rejects a document without a history array, naming the field", () => {
    expect(readTraj('{"trajectory": []}', "x.traj")).toEqual(
      E.left({ _tag: "InvalidMessages", source: "x.traj", problems: ["history: expected an array of messages"] }),
    );
    expect(readTraj("[]", "x.traj")).toMatchObject(E.left({ _tag: "UnrecognisedFormat" }));
    expect(readTraj("  \n", "x.traj")).toEqual(E.left({ _tag: "EmptyInput", source: "x.traj" }));
  });
});
