// Runs the example of README.md verbatim (between the markers) and checks its results.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { createChatSession, createSessionCompactor, openSqliteStore } from "@cc/session";
import { offlineProvider } from "@cc/lcm";
import { type Message } from "@cc/messages";

describe("session README example", () => {
  it("runs, compacts once the threshold is crossed, and keeps the prompt small", async () => {
    const log: string[] = [];
    const console = { log: (line: string) => void log.push(line) };
    // --- example start
    const store = await openSqliteStore({ path: ":memory:" })(); // or a file path such as "agent.db"
    if (E.isLeft(store)) throw new Error(store.left._tag);
    const compactor = createSessionCompactor({
      store: store.right,
      provider: offlineProvider(), // any Provider: an OpenAI-compatible endpoint, or the offline summariser
      config: { maxTokens: 500, threshold: 0.8, preserveLast: 4 }, // compact once the input reaches 400 tokens
    });
    compactor.events.subscribe((e) => {
      if (e._tag === "CompactionDone") console.log(`summary ${e.summaryId} covers messages 1..${e.coversUpTo}`);
    });
    const session = createChatSession({
      store: store.right,
      compactor,
      stackId: "chat-1",
      systemPrompt: "You are a coding agent.",
    });

    const prompts: (readonly Message[])[] = [];
    for (let turn = 1; turn <= 8; turn++) {
      const prepared = await session.prepareTurn([
        { role: "user", content: `Step ${turn}: fix the failing test in src/parser.ts` },
      ])();
      if (E.isLeft(prepared)) throw new Error(prepared.left._tag);
      prompts.push(prepared.right.prompt); // send this to your model
      const reply: Message[] = [
        { role: "assistant", content: `Step ${turn} done: edited src/parser.ts.${" Details.".repeat(30)}` },
      ];
      const reportedInputTokens = 60 * prepared.right.prompt.length; // what your provider reports as input tokens
      await session.finishTurn(reply, reportedInputTokens)();
    }
    // --- example end

    expect(log).toEqual(["summary 1 covers messages 1..5", "summary 2 covers messages 1..9"]);
    const last = prompts[prompts.length - 1]!;
    expect(last[0]).toEqual({ role: "system", content: "You are a coding agent." });
    expect(last[1]!.content).toContain("<conversation_summary>");
    expect(last.slice(2).map((m) => m.content.slice(0, 6))).toEqual([
      "Step 5",
      "Step 6",
      "Step 6",
      "Step 7",
      "Step 7",
      "Step 8",
    ]);
    expect(prompts[0]).toHaveLength(2);
  });

  it("the README shows exactly this code", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const source = readFileSync(new URL(import.meta.url), "utf8");
    const example = source.slice(source.indexOf("// --- example start") + 21, source.indexOf("    // --- example end"));
    const dedented = example
      .split("\n")
      .map((l) => l.replace(/^ {4}/, ""))
      .join("\n")
      .trim();
    expect(readme).toContain(dedented);
  });
});
