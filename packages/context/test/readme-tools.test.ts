// Runs the README's tool-core example (section "The verbs every face uses") and checks its output.
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it, vi } from "vitest";
import { createContextManager, toolReply } from "@cc/context";

describe("README: the verbs and the tool core", () => {
  it("evicts a tool result on arrival and finds it through the core", async () => {
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const log = [
      "Traceback (most recent call last):",
      '  File "src/app.py", line 3',
      "KeyError: 'header'",
      ...Array.from({ length: 300 }, (_, i) => `frame ${i} of the log`),
    ].join("\n");
    const manager = createContextManager({ maxTokens: 8000 });
    const evicted = await manager.evictToolResult(
      { toolCallId: "c1", toolName: "bash", content: log },
      { maxTokens: 500 },
    );
    const core = manager.tools({ maxExpandChars: 8000 });
    const reply = toolReply(await core.search.run('{"query":"KeyError src/app.py"}'));
    console.log(reply.text); // {"hits":[{"id":"r…","kind":"tool_result:bash","summary":"bash result (… tokens): …","snippet":"…","tokens":…}]}
    const printed = String(spy.mock.calls[0]?.[0]);
    spy.mockRestore();
    if (E.isLeft(evicted) || evicted.right === undefined) throw new Error("expected an eviction");
    const hits = (JSON.parse(printed) as { hits: { id: string; kind: string; tokens: number }[] }).hits;
    expect(hits[0]).toMatchObject({ id: evicted.right.id, kind: "tool_result:bash", tokens: evicted.right.tokens });
    expect(await manager.expand(evicted.right.id)).toBe(log);
  });
});
