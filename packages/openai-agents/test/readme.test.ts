// Runs the README's quick start verbatim (between the markers) with the SDK's ScriptedModel as
// the default model, and checks what it prints.
import { Agent, MemorySession, run, setDefaultModelProvider, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { describe, expect, it, vi } from "vitest";
import { createAgentsCompaction } from "../src/index.js";
import { readFile } from "./fixtures.js";

describe("README quick start", () => {
  it("runs an agent with the filter, a session and the tools", async () => {
    setTracingDisabled(true);
    const model = new ScriptedModel([
      [functionCall("read_file", { path: "reader.py" }, { callId: "r1" })],
      [assistantMessage("The header row is missing.")],
    ]);
    setDefaultModelProvider({ getModel: () => model });
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    // README-EXAMPLE-START
    const cc = createAgentsCompaction({ maxTokens: 8000 }); // or { manager: createContextManager({ … }) }
    const agent = new Agent({ name: "coder", instructions: "You fix Python files.", tools: [readFile, ...cc.tools] });
    const options = { session: new MemorySession(), callModelInputFilter: cc.callModelInputFilter };
    const result = await run(agent, "Why does reader.py fail?", options);
    console.log(result.finalOutput, cc.lastReport()?.turn.budgetMet);
    // README-EXAMPLE-END
    const logs = spy.mock.calls;
    spy.mockRestore();
    expect(logs).toEqual([["The header row is missing.", true]]);
    expect(model.calls.map((c) => c.request.tools.map((t) => t.name))).toEqual([
      ["read_file", "search_context", "expand_context"],
      ["read_file", "search_context", "expand_context"],
    ]);
  });
});
