// The item ⇄ message conversion: every callId kind pairs, grouping follows the unit rules, and
// messages map back to the very item objects.
import { messageUnits } from "@cc/messages";
import type { AgentInputItem } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { itemKind, itemsToMessages, messagesToItems } from "../src/index.js";

describe("itemKind", () => {
  it.each<[string, AgentInputItem, string, string | undefined]>([
    [
      "function_call",
      { type: "function_call", callId: "a", name: "ls", namespace: "fs", arguments: "{}" },
      "call",
      "a",
    ],
    [
      "function_call_result",
      {
        type: "function_call_result",
        callId: "a",
        name: "ls",
        status: "completed",
        output: [{ type: "input_image", image: "x" }],
      },
      "result",
      "a",
    ],
    [
      "computer_call",
      { type: "computer_call", callId: "b", status: "completed", action: { type: "screenshot" } },
      "call",
      "b",
    ],
    [
      "computer_call_result",
      { type: "computer_call_result", callId: "b", output: { type: "computer_screenshot", data: "aGk=" } },
      "result",
      "b",
    ],
    ["shell_call", { type: "shell_call", callId: "c", action: { commands: ["ls"] } }, "call", "c"],
    [
      "shell_call_output",
      {
        type: "shell_call_output",
        callId: "c",
        output: [{ stdout: "a.py", stderr: "", outcome: { type: "exit", exitCode: 0 } }],
      },
      "result",
      "c",
    ],
    [
      "apply_patch_call",
      { type: "apply_patch_call", callId: "d", status: "completed", operation: { type: "delete_file", path: "x" } },
      "call",
      "d",
    ],
    ["apply_patch_call_output", { type: "apply_patch_call_output", callId: "d", status: "completed" }, "result", "d"],
    ["program", { type: "program", callId: "e", code: "1", fingerprint: "f" }, "call", "e"],
    ["program_output", { type: "program_output", callId: "e", output: "1", status: "completed" }, "result", "e"],
    ["tool_search_call (call_id)", { type: "tool_search_call", call_id: "f", arguments: { query: "x" } }, "call", "f"],
    ["tool_search_output (callId)", { type: "tool_search_output", callId: "f", tools: [] }, "result", "f"],
    ["server tool search (null id)", { type: "tool_search_call", call_id: null, arguments: {} }, "opaque", undefined],
    ["hosted_tool_call", { type: "hosted_tool_call", name: "web_search", output: "found" }, "opaque", undefined],
    ["compaction", { type: "compaction", encrypted_content: "zzz" }, "opaque", undefined],
    ["unknown", { type: "unknown", providerData: { x: 1 } }, "opaque", undefined],
  ])("%s", (_label, item, kind, callId) => {
    const k = itemKind(item);
    expect(k.kind).toBe(kind);
    expect("callId" in k ? k.callId : undefined).toBe(callId);
  });

  it("a kind this SDK version does not know is opaque, its JSON counted", () => {
    const k = itemKind({ type: "future_item", payload: "abc" } as unknown as AgentInputItem);
    expect(k).toEqual({ kind: "opaque", text: '{"type":"future_item","payload":"abc"}' });
  });

  it("images, files and audio are short markers; text parts are verbatim", () => {
    expect(
      itemKind({
        role: "user",
        content: [
          { type: "input_text", text: "see" },
          { type: "input_image", image: "data:…" },
          { type: "input_file", filename: "a.pdf" },
        ],
      }),
    ).toEqual({ kind: "message", role: "user", text: "see\n[image]\n[file a.pdf]" });
  });
});

describe("itemsToMessages / messagesToItems", () => {
  const items: AgentInputItem[] = [
    { role: "user", content: "go", id: "m1" },
    { type: "reasoning", id: "r1", content: [{ type: "input_text", text: "think" }] },
    { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "reading" }] },
    { type: "function_call", callId: "a", name: "read", arguments: "{}" },
    { type: "shell_call", callId: "b", action: { commands: ["ls"] } },
    {
      type: "shell_call_output",
      callId: "b",
      output: [{ stdout: "x", stderr: "", outcome: { type: "exit", exitCode: 0 } }],
    },
    { type: "unknown" },
    { type: "function_call_result", callId: "a", name: "read", status: "completed", output: "text" },
  ];

  it("groups reasoning, the response text and its parallel calls into one message; results answer by callId", () => {
    const c = itemsToMessages(items, "Be brief.");
    expect(c.sources).toEqual([[], [0], [1, 2, 3, 4], [5], [6], [7]]);
    expect(c.messages[2]).toEqual({
      role: "assistant",
      id: "r1",
      content: "think\nreading",
      toolCalls: [
        { id: "a", name: "read", arguments: "{}" },
        { id: "b", name: "shell", arguments: '{"commands":["ls"]}' },
      ],
    });
    // One unit from the calls to the last result, the opaque item inside it included.
    expect(messageUnits(c.messages).map((u) => [u.start, u.end])).toEqual([
      [0, 1],
      [1, 2],
      [2, 6],
    ]);
  });

  it("maps messages back to the same item objects, by identity or (for a copy) by content in order", () => {
    const c = itemsToMessages(items, "Be brief.");
    const copied = c.messages.map((m, i) => (i === 3 ? structuredClone(m) : m));
    const back = messagesToItems([copied[0]!, { role: "user", content: "note" }, ...copied.slice(2)], c, items);
    expect(back.instructionsKept).toBe(true);
    expect(back.added).toBe(1);
    expect(back.items[0]).toEqual({ type: "message", role: "user", content: "note" });
    back.items.slice(1).forEach((item, i) => expect(item).toBe(items[i + 1]));
    expect(back.kept).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
