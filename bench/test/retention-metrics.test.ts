import { describe, expect, it } from "vitest";
import {
  actionText,
  agentReaccesses,
  agentText,
  contextQuery,
  grepEvicted,
  groundingTargets,
  heldBy,
  holdings,
  literalKeys,
  ruleKinds,
  templateLines,
  type MetricMessage,
} from "../retention/metrics.js";

const session: MetricMessage[] = [
  { role: "system", content: "You fix bugs. Files like setup.py matter." },
  { role: "user", content: "Here is a demonstration of how to correctly accomplish this task.\nOpen demo_helper.py" },
  { role: "user", content: "ISSUE:\nparse_date fails in src/dates.py\nINSTRUCTIONS: be careful" },
  {
    role: "assistant",
    content: "Look at dates.py",
    toolCalls: [{ id: "call_abcdef1", name: "bash", arguments: '{"command":"grep -n parse_date src/dates.py"}' }],
  },
  { role: "tool", toolCallId: "call_abcdef1", content: "120:def parse_date(value):\n131:    raise ValueError" },
  {
    role: "assistant",
    content: "",
    extra: { reasoning_content: "ValueError at line 131 of dates.py; also demo_helper.py and setup.py" },
    toolCalls: [{ id: "call_abcdef2", name: "bash", arguments: '{"command":"sed -n 120,140p src/dates.py --quiet"}' }],
  },
];

describe("retention metric rules", () => {
  it("labels system, demonstration, task, action and observation", () => {
    expect(ruleKinds(session)).toEqual(["system", "demonstration", "task", "action", "observation", "action"]);
  });

  it("counts only re-accesses made by the agent, never tool-call ids, never system or demonstration origins", () => {
    const h = holdings(session, new Set());
    const uses = agentReaccesses(session, h);
    // Message 3 re-uses the task's terms; message 5 (reasoning) re-uses ValueError and dates.py;
    // demo_helper.py (demonstration) and setup.py (system prompt) are not re-accesses; the tool
    // result (message 4) makes none, and call ids never count.
    expect(uses).toEqual([
      { at: 3, key: "path:dates.py" },
      { at: 3, key: "identifier:parse_date" },
      { at: 5, key: "error:ValueError" },
      { at: 5, key: "path:dates.py" },
    ]);
  });

  it("strips template lines from origins", () => {
    const template = templateLines([session, session, session]);
    expect(template.has("INSTRUCTIONS: be careful")).toBe(true);
    expect(
      holdings(session, new Set(["ISSUE:", "parse_date fails in src/dates.py"])).held[2]?.has("path:dates.py"),
    ).toBe(false);
  });

  it("credits a term held anywhere in the kept context, not only its first mention", () => {
    const h = holdings(session, new Set());
    expect(heldBy("path:dates.py", [0, 3], h.held)).toBe(true); // the agent's own earlier mention
    expect(heldBy("path:dates.py", [0, 4], h.held)).toBe(false);
    expect(heldBy("error:ValueError", [4], h.held)).toBe(true);
  });

  it("grounds action literals: line numbers, flags, paths copied from earlier messages", () => {
    expect([...literalKeys("sed -n 120,160p src/app.py --quiet 0xdeadbeef")].sort()).toEqual([
      "flag:--quiet",
      "flag:-n",
      "hex:0xdeadbeef",
      "num:120",
      "num:160",
      "path:app.py",
    ]);
    const h = holdings(session, new Set());
    const g = groundingTargets(session, h)
      .filter((u) => u.at === 5)
      .map((u) => u.key);
    // 120 was in the observation; 140 and --quiet were not; -n was in message 3's action.
    expect(g.sort()).toEqual(["flag:-n", "num:120", "path:dates.py"]);
  });

  it("reads the agent's reasoning and its fenced actions", () => {
    expect(agentText(session[5]!)).toContain("line 131");
    expect(actionText({ role: "assistant", content: "T\n```bash\nls src\n```" })).toBe("ls src\n");
  });

  it("forms recovery queries from the context only, rarest first; grep ranks by matched words", () => {
    const h = holdings(session, new Set());
    expect(contextQuery([2, 3, 4], h.held, 1, 8)).toEqual(["ValueError", "parse_date"]);
    expect(grepEvicted(["parse_date", "nothing"], [2, 4], h.held, 5)).toEqual([4, 2]);
    expect(grepEvicted(["nothing"], [2, 4], h.held, 5)).toEqual([]);
  });
});
