import { createContextManager } from "@cc/context";

const history = [{ role: "system", content: "You are a coding agent." }];
for (let step = 1; step <= 40; step++) {
  history.push({ role: "user", content: `Step ${step}: run the test suite and report.` });
  history.push({ role: "assistant", content: `Step ${step}: ${"ok ".repeat(60)}all tests pass.` });
}
const manager = createContextManager({ maxTokens: 2000 });
const { messages, budgetMet } = await manager.compact(history);
console.log(`${history.length} messages in, ${messages.length} out, budget met: ${budgetMet}`);

// What was evicted is searchable, and expands back to the original text.
const [hit] = await manager.search("Step 7 test suite");
const original = hit === undefined ? undefined : await manager.expand(hit.id);
console.log(original?.split("\n")[0]);
