import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { estimateCounter } from "@cc/tokens";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { createLcmCompactor } from "../src/compactor.js";
import type { Message } from "@cc/messages";
import { summaryPrompt } from "../src/prompts.js";
import { isErrorLine } from "../src/providers/offline/facts.js";
import { extractiveSummary, OFFLINE_MIN_BUDGET, offlineProvider, summaryBudget } from "../src/providers/offline.js";
import { serialiseMessage, serialiseTranscript } from "../src/transcript.js";
import { corpusPath } from "../../../.ci/data.js";
import { runsFor } from "../../../.ci/support/runs.js";

const counter = estimateCounter();
const runs = runsFor(200, 1000);

const session: readonly Message[] = [
  { role: "user", content: "Fix the failing parser test in src/parser.ts\nKeep the public API unchanged." },
  {
    role: "assistant",
    content: "I will run the tests first.",
    toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"npm test"}' }],
  },
  {
    role: "tool",
    toolCallId: "c1",
    name: "bash",
    content: "running 12 tests\nFAIL test/parser.test.ts\nError: expected parseLine to return 3",
  },
  {
    role: "assistant",
    content: "The bug is in parseLine because it skips the last token.",
    toolCalls: [{ id: "c2", name: "edit", arguments: '{"path":"src/parser.ts"}' }],
  },
  { role: "tool", toolCallId: "c2", name: "edit", content: "edited src/parser.ts" },
  {
    role: "assistant",
    content: "Running the tests again.",
    toolCalls: [{ id: "c3", name: "bash", arguments: '{"command":"npm test"}' }],
  },
  {
    role: "tool",
    toolCallId: "c3",
    name: "bash",
    content: "running 12 tests\nTypeError: cannot read properties of undefined (reading 'kind')",
  },
];

async function ask(level: "detailed" | "bullet", messages: readonly Message[], maxTokens: number): Promise<string> {
  const r = await offlineProvider({ counter, detailedShare: 10, bulletShare: 10 }).complete({
    model: "offline-extractive",
    messages: summaryPrompt(level, serialiseTranscript(messages), maxTokens),
    maxTokens,
  })();
  if (E.isLeft(r)) throw new Error(r.left._tag);
  return r.right.text;
}

describe("offline summariser: what it keeps", () => {
  it("keeps the goal, the touched files, the last outcome of each command, the last error and decisions", async () => {
    const s = await ask("detailed", session, 400);
    expect(s.split("\n")[0]).toBe("Goal: Fix the failing parser test in src/parser.ts Keep the public API unchanged.");
    expect(s).toContain("Files touched: src/parser.ts");
    // "npm test" ran twice: only its last outcome is kept.
    expect(s).toContain(
      '- `bash {"command":"npm test"}` → TypeError: cannot read properties of undefined (reading \'kind\') (+1 lines)',
    );
    expect(s.match(/npm test/g)).toHaveLength(1);
    expect(s).toContain('- `edit {"path":"src/parser.ts"}` → edited src/parser.ts');
    expect(s).toContain("Error: expected parseLine to return 3");
    expect(s).toContain("The bug is in parseLine because it skips the last token.");
    expect(s).toContain("Latest: Running the tests again.");
    expect(s).toMatch(/Identifiers: .*parseLine/);
    expect(counter.count(s)).toBeLessThanOrEqual(400);
  });

  it("writes terser bullets when the instructions ask for bullet points", async () => {
    const detailed = await ask("detailed", session, 400);
    const bullet = await ask("bullet", session, 400);
    expect(bullet.split("\n").every((l) => l.startsWith("- "))).toBe(true);
    expect(bullet).toContain("- Goal: Fix the failing parser test in src/parser.ts");
    expect(bullet).toContain("- error: TypeError: cannot read properties of undefined (reading 'kind')");
    expect(counter.count(bullet)).toBeLessThan(counter.count(detailed));
  });

  it("aims at a share of the source, not at the whole budget, so a loose budget still condenses", () => {
    expect(summaryBudget(1000, 8000, "detailed", {})).toBe(980);
    expect(summaryBudget(10_000, 8000, "detailed", {})).toBe(2000);
    expect(summaryBudget(10_000, 8000, "bullet", {})).toBe(960);
    expect(summaryBudget(10_000, 10, "detailed", {})).toBe(128);
    expect(summaryBudget(Number.NaN, 8000, "detailed", {})).toBe(0);
    const source = serialiseTranscript(Array.from({ length: 40 }, (_, i) => session[i % session.length]!));
    const s = extractiveSummary(source, 1_000_000, counter);
    expect(counter.count(s)).toBeLessThanOrEqual(Math.max(128, Math.ceil(0.25 * counter.count(source))));
  });

  it("clips the goal when the budget is small and says nothing below the minimum budget", () => {
    const source = serialiseTranscript(session);
    const small = extractiveSummary(source, 20, counter);
    expect(small.startsWith("Goal: Fix the failing")).toBe(true);
    expect(counter.count(small)).toBeLessThanOrEqual(20);
    expect(extractiveSummary(source, OFFLINE_MIN_BUDGET, counter)).toBe("");
    expect(extractiveSummary(source, 0, counter)).toBe("");
    expect(extractiveSummary("", 500, counter)).toBe("");
  });

  it("handles odd Unicode (CJK, emoji, lone surrogates) and text with no transcript tags", async () => {
    const r = await offlineProvider({ counter }).complete({
      model: "m",
      messages: [{ role: "user", content: "日本語 😀 \ud800 src/a.ts\nerror: 失败 \udc00" }],
      maxTokens: 80,
    })();
    const text = E.isRight(r) ? r.right.text : "";
    expect(text).toContain("Goal: 日本語 😀 \ud800 src/a.ts error: 失败 \udc00");
    expect(counter.count(text)).toBeLessThanOrEqual(80);
  });

  it("an aborted request is a typed ProviderAborted", async () => {
    const ac = new AbortController();
    ac.abort();
    const r = await offlineProvider().complete({ model: "m", messages: [], maxTokens: 10, signal: ac.signal })();
    expect(E.isLeft(r) && r.left._tag).toBe("ProviderAborted");
  });
});

describe("offline summariser: properties", () => {
  const text = fc.oneof(fc.string({ unit: "binary", maxLength: 400 }), fc.string({ maxLength: 400 }));
  const line = fc.oneof(
    fc.constantFrom(
      "[user]",
      "[assistant]",
      "[tool result bash #c1]",
      "→ call bash #c1: {}",
      "```",
      "Error: x in a/b.py",
      "`fooBar`",
    ),
    text,
  );
  const transcript = fc.array(line, { maxLength: 40 }).map((ls) => ls.join("\n"));
  it("never exceeds maxTokens, is deterministic and never throws on arbitrary text (lone surrogates included)", () => {
    fc.assert(
      fc.property(
        transcript,
        fc.integer({ min: 0, max: 600 }),
        fc.constantFrom("detailed" as const, "bullet" as const),
        (source, max, style) => {
          const s = extractiveSummary(source, max, counter, { style });
          expect(counter.count(s)).toBeLessThanOrEqual(max);
          expect(extractiveSummary(source, max, counter, { style })).toBe(s);
        },
      ),
      { numRuns: runs },
    );
  });
  it("the provider always answers Right within maxTokens, whatever the request", async () => {
    const maxTokens = fc.oneof(
      fc.integer({ min: -5, max: 800 }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 1e12),
    );
    await fc.assert(
      fc.asyncProperty(transcript, maxTokens, fc.boolean(), async (body, max, wrap) => {
        const messages: Message[] = wrap ? [...summaryPrompt("bullet", body, 100)] : [{ role: "user", content: body }];
        const r = await offlineProvider({ counter }).complete({ model: "m", messages, maxTokens: max })();
        expect(E.isRight(r)).toBe(true);
        const limit = Number.isFinite(max) ? Math.max(0, Math.floor(max)) : 1024;
        if (E.isRight(r)) expect(counter.count(r.right.text)).toBeLessThanOrEqual(limit);
      }),
      { numRuns: runs },
    );
  });
});

const dataDir = corpusPath("swe-agent-trajectories");

function trajectory(file: string): Message[] {
  const raw = JSON.parse(readFileSync(join(dataDir, file), "utf8")) as {
    history?: { role?: unknown; content?: unknown }[];
  };
  return (raw.history ?? []).map((h): Message => {
    const content = typeof h.content === "string" ? h.content : JSON.stringify(h.content ?? "");
    return h.role === "system"
      ? { role: "system", content }
      : h.role === "assistant"
        ? { role: "assistant", content }
        : { role: "user", content };
  });
}

/** The task line: the first non-empty line of the first user message, trimmed. */
const taskLine = (head: readonly Message[]): string =>
  head
    .find((m) => m.role === "user")
    ?.content.split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "") ?? "";
/** Touched paths: `*.py` files the assistant named in the compacted part. */
const touchedPaths = (head: readonly Message[]): Set<string> =>
  new Set(
    head
      .filter((m) => m.role === "assistant")
      .flatMap((m) =>
        [...m.content.matchAll(/(?<![\w/.:-])(?:[\w.-]+\/)*[\w-][\w.-]*\.py(?![\w/])/g)].map((x) => x[0]),
      ),
  );
/** The last error: the last error line of the serialised results after the task (assistant text excluded). */
const lastError = (head: readonly Message[]): string | undefined => {
  const first = head.findIndex((m) => m.role === "user");
  const lines = head.flatMap((m, i) =>
    i <= first || m.role === "assistant"
      ? []
      : serialiseMessage(m)
          .split("\n")
          .slice(1)
          .map((l) => l.trim()),
  );
  return lines.filter(isErrorLine).pop();
};

describe("offline summariser on the SWE-agent trajectories (maxTokens = tokens/4, preserveLast 6)", () => {
  const files = readdirSync(dataDir)
    .filter((f) => f.endsWith(".traj"))
    .sort();
  it("finds the trajectories", () => expect(files.length).toBeGreaterThanOrEqual(12));
  for (const file of files) {
    it(`${file.slice(0, 60)}: level 1 is accepted whenever its target allows a summary, keeping task, paths, last error`, async () => {
      const messages = trajectory(file);
      const compactor = createLcmCompactor({ provider: offlineProvider({ counter }), counter });
      const maxTokens = Math.max(1000, Math.floor(compactor.estimateUsage(messages) / 4));
      const r = await compactor.compact(messages, { maxTokens, preserveLast: 6 })();
      if (E.isLeft(r)) return expect.fail(r.left._tag);
      const res = r.right;
      const detailed = res.attempts[0]!;
      if (detailed.target <= OFFLINE_MIN_BUDGET) {
        // The system prompt and the preserved tail already fill maxTokens: no room for any summary.
        expect(res.level).toBe("truncate");
        return;
      }
      expect(res.level).toBe("detailed");
      const head = messages.slice(res.system.length, res.system.length + res.messagesCompacted);
      expect(res.summary).toContain(taskLine(head));
      for (const p of touchedPaths(head)) expect(res.summary).toContain(p);
      const err = lastError(head);
      if (err !== undefined) expect(res.summary).toContain(err.length > 240 ? err.slice(0, 239) : err);
    });
  }
});
