// The framework adapters installed from their tarballs next to the frameworks they plug into (the
// peers a user already has), run under plain node: each compacts one tool-heavy conversation in
// its framework's own message shape to under its budget, without splitting a call from its result.
import { createContextManager } from "@cc/context";
import { createAiSdkContext } from "@cc/ai-sdk";
import { compactionMiddleware } from "@cc/langchain";
import { createAgentsCompaction } from "@cc/openai-agents";
import { createCompactionProcessor } from "@cc/mastra";

const fail = (msg) => {
  console.error(`consumer check (adapters): ${msg}`);
  process.exit(1);
};
const big = (i) => `line ${i}: ${"output of the tool with some_identifier and a path src/app.py ".repeat(40)}`;

// AI SDK: ModelMessages with tool-call / tool-result parts.
{
  const messages = [
    { role: "system", content: "You fix code." },
    { role: "user", content: "Fix src/app.py" },
  ];
  for (let i = 0; i < 12; i++) {
    messages.push({
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: `c${i}`, toolName: "bash", input: { cmd: `cat f${i}.py` } }],
    });
    messages.push({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: `c${i}`, toolName: "bash", output: { type: "text", value: big(i) } },
      ],
    });
  }
  const cc = createAiSdkContext({ maxTokens: 2000 });
  const out = await cc.prepareStep({ messages, stepNumber: 0, steps: [] });
  if (out === undefined) fail("ai-sdk: prepareStep did not compact a history over its budget");
  const calls = new Set(
    out.messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((p) => p.type === "tool-call").map((p) => p.toolCallId) : [],
    ),
  );
  const orphan = out.messages
    .flatMap((m) => (m.role === "tool" ? m.content.map((p) => p.toolCallId) : []))
    .find((id) => !calls.has(id));
  if (orphan !== undefined) fail(`ai-sdk: result ${orphan} without its call`);
  console.log(`@cc/ai-sdk with ai: ${messages.length} messages → ${out.messages.length}`);
}

// OpenAI Agents SDK: function_call / function_call_result items.
{
  const items = [{ role: "user", content: "Fix src/app.py" }];
  for (let i = 0; i < 12; i++) {
    items.push({
      type: "function_call",
      callId: `c${i}`,
      name: "bash",
      arguments: JSON.stringify({ cmd: `cat f${i}.py` }),
    });
    items.push({ type: "function_call_result", callId: `c${i}`, name: "bash", status: "completed", output: big(i) });
  }
  const cc = createAgentsCompaction({ manager: createContextManager({ maxTokens: 2000 }) });
  const r = await cc.compactItems(items, "You fix code.")();
  if (r._tag !== "Right") fail(`openai-agents: ${JSON.stringify(r.left)}`);
  if (r.right.report.turn.budgetMet !== true) fail("openai-agents: budget not met");
  console.log(`@cc/openai-agents with @openai/agents: ${items.length} items → ${r.right.items.length}`);
}

// LangChain.js and Mastra: the middleware and the processor are built against the installed frameworks.
{
  const mw = compactionMiddleware({ manager: createContextManager({ maxTokens: 2000 }) });
  if (typeof mw !== "object" || mw === null || typeof mw.name !== "string")
    fail("langchain: compactionMiddleware did not return a middleware");
  const processor = createCompactionProcessor({ maxTokens: 2000 });
  for (const hook of ["processInputStep", "processLLMRequest"])
    if (typeof processor[hook] !== "function") fail(`mastra: processor has no ${hook}`);
  console.log(
    `@cc/langchain with langchain: middleware "${mw.name}"; @cc/mastra with @mastra/core: processor "${processor.id ?? processor.name}"`,
  );
}
