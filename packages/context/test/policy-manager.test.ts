import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContextManager, type ContextEvent, type PolicyOptions, type TurnResult } from "@cc/context";
import { decodeSnapshot } from "@cc/test-support/context";
import { memoryIndex } from "@cc/search";
import { openAICompatibleProvider } from "@cc/lcm";
import type { Message, Provider } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import { runsFor } from "../../../.ci/support/runs.js";

const runs = runsFor(12, 30);
const counter = tiktokenCounter();

let server: Server;
let base = "";
let status = 503;
let requests = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.endsWith("/chat/completions") === true) requests++;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: status === 401 ? "invalid api key" : "overloaded" } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  counter.dispose();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const WORDS = ["alpha", "parse_config", "TimeDelta", "error", "retry", "src/app.py", "value", "bucket", "42", "render"];
const textArb = (maxWords: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: maxWords }).map((w) => w.join(" "));
/** A turn: an assistant tool call and its result, or a user message. */
const turnArb = (i: number): fc.Arbitrary<Message[]> =>
  fc.oneof(
    textArb(40).map((t): Message[] => [{ role: "user", content: t }]),
    fc.tuple(textArb(10), textArb(150)).map(([a, r]): Message[] => [
      {
        role: "assistant",
        content: a,
        toolCalls: [{ id: `c${i}`, name: "bash", arguments: JSON.stringify({ command: a }) }],
      },
      { role: "tool", content: r, toolCallId: `c${i}` },
    ]),
  );
const sessionArb = fc
  .integer({ min: 8, max: 30 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => turnArb(i))));
const policyArb: fc.Arbitrary<PolicyOptions> = fc.record({
  kind: fc.constantFrom("threshold", "hermes", "cost"),
  minSavedTokens: fc.nat(800),
  minTurnsBetween: fc.nat(5),
  prices: fc.constantFrom("openai/gpt-4.1", "anthropic/claude-sonnet-4", "deepseek/deepseek-chat"),
});

const json = (m: readonly Message[]): string => JSON.stringify(m);

describe("context manager with a policy", () => {
  it("property: the budget is never exceeded; a turn that does not compact sends the last prompt byte for byte plus the new messages (nothing lost)", async () => {
    await fc.assert(
      fc.asyncProperty(sessionArb, policyArb, fc.boolean(), async (turns, policy, feedBack) => {
        const maxTokens = 1500;
        const manager = createContextManager({
          maxTokens,
          counter,
          policy,
          preserveLast: 2,
          noteTokens: 150,
          namespace: "p",
        });
        const system: Message = { role: "system", content: "You are a careful coding agent." };
        let history: Message[] = [system];
        let last: readonly Message[] = [];
        for (const t of turns) {
          history = [...history, ...t];
          // Either the caller keeps the whole history, or it feeds the last prompt back.
          const input = feedBack && last.length > 0 ? [...last, ...t] : history;
          const r: TurnResult = await manager.compact(input);
          expect(r.decision).toBeDefined();
          expect(r.tokensAfter).toBeLessThanOrEqual(maxTokens);
          expect(r.budgetMet).toBe(true);
          if (!r.compacted) {
            expect(r.decision?._tag).not.toBe("Compacted");
            expect(json(r.messages)).toBe(json([...last, ...(last.length === 0 ? history : t)]));
          }
          last = r.messages;
        }
      }),
      { numRuns: runs },
    );
  });

  it("renders the compacted prefix byte-identically on every turn until the next compaction", async () => {
    const manager = createContextManager({
      maxTokens: 1500,
      counter,
      policy: { kind: "cost" },
      preserveLast: 2,
      noteTokens: 150,
    });
    let history: Message[] = [{ role: "system", content: "sys" }];
    let prefix: string | undefined;
    let stableTurns = 0;
    for (let i = 0; i < 40; i++) {
      history = [...history, { role: "user", content: `${WORDS.join(" ")} ${i} `.repeat(8) }];
      const r = await manager.compact(history);
      if (r.compacted) {
        prefix = json(r.messages).slice(0, -1);
        continue;
      }
      if (prefix !== undefined) {
        expect(json(r.messages).startsWith(prefix)).toBe(true);
        stableTurns++;
      }
    }
    expect(stableTurns).toBeGreaterThan(5);
  });

  it("a summariser failure cools down (no LLM call for cooldownTurns, truncation meets the budget); an auth failure disables it with one alert", async () => {
    const provider = openAICompatibleProvider({ baseUrl: base, maxRetries: 0, apiKey: "k" });
    if (E.isLeft(provider)) throw new Error(provider.left.message);
    const events: ContextEvent[] = [];
    const make = (p: Provider) =>
      createContextManager({
        maxTokens: 800,
        counter,
        strategy: "lcm",
        provider: p,
        summaryModel: "m",
        preserveLast: 1,
        policy: { kind: "hermes", cooldownTurns: 2, minTurnsBetween: 0, minSavedTokens: 0, minSavedShare: 0 },
        events: {
          publish: (e) => {
            events.push(e);
          },
        },
      });
    const long = (i: number): Message[] => [
      { role: "user", content: `turn ${i} ${"words of the conversation ".repeat(60)}` },
      { role: "assistant", content: `ok ${i}` },
    ];
    status = 503;
    requests = 0;
    const m = make(provider.right);
    let history: Message[] = [];
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      history = [...history, ...long(i)];
      const r = await m.compact(history, { force: true });
      expect(r.budgetMet).toBe(true);
      seen.push(requests);
    }
    // Turn 1 asked the LLM and failed; turns 2 and 3 cooled down; turn 4 asked again (and failed).
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
    expect(seen[3]).toBeGreaterThan(seen[2]!);
    expect(events.filter((e) => e._tag === "SummariserCoolingDown").map((e) => e.turn)).toEqual([1, 4]);
    expect(events.filter((e) => e._tag === "CompactionDecided")).toHaveLength(5);

    status = 401;
    requests = 0;
    events.length = 0;
    const a = make(provider.right);
    history = [];
    const disabledWarnings: number[] = [];
    for (let i = 0; i < 4; i++) {
      history = [...history, ...long(i)];
      const r = await a.compact(history, { force: true });
      disabledWarnings.push(r.warnings.filter((w) => w._tag === "SummariserDisabled").length);
      expect(r.decision).toMatchObject({ _tag: "Compacted", summariser: i === 0 ? "llm" : "disabled" });
    }
    expect(requests).toBe(1);
    expect(disabledWarnings).toEqual([1, 0, 0, 0]);
    expect(events.filter((e) => e._tag === "SummariserDisabled")).toHaveLength(1);
  });

  it("a candidate that saves too little is discarded: the prompt is unchanged and the index holds none of its units", async () => {
    const index = memoryIndex();
    const m = createContextManager({
      maxTokens: 1000,
      counter,
      index,
      namespace: "skip",
      preserveLast: 2,
      noteTokens: 50,
      policy: { kind: "hermes", minSavedTokens: 200 },
    });
    const history: Message[] = [
      { role: "user", content: "short question about parse_config" },
      // The last step alone exceeds the target: the tail cannot shrink below it, so the real saving is small.
      { role: "assistant", content: "x ".repeat(100) },
      { role: "user", content: "y ".repeat(750) },
    ];
    const r = await m.compact(history);
    expect(r.decision).toMatchObject({ _tag: "Skipped", reason: "SavingTooSmall", minimum: 200 });
    // Settled on the candidate's real saving (the estimate, prompt − target, was above the minimum).
    expect(r.decision?._tag === "Skipped" && r.decision.saved < 100).toBe(true);
    expect(r.compacted).toBe(false);
    expect(json(r.messages)).toBe(json(history));
    const stored = await index.count("skip")();
    expect(stored).toEqual(E.right(0));
  });

  it("an event sink that throws is reported as a warning and the turn goes on", async () => {
    const m = createContextManager({
      maxTokens: 1000,
      counter,
      policy: { kind: "hermes" },
      events: {
        publish: () => {
          throw new Error("sink down");
        },
      },
    });
    const r = await m.compact([{ role: "user", content: "hi" }]);
    expect(r.decision).toMatchObject({ _tag: "Waited", reason: "BelowTrigger" });
    expect(r.warnings).toEqual([{ _tag: "EventPublishFailed", event: "CompactionDecided", message: "sink down" }]);
  });

  it("snapshot → resume: a new manager renders the same prompt bytes as the old one would", async () => {
    const opts = { maxTokens: 1500, counter, policy: { kind: "hermes" as const }, preserveLast: 2, noteTokens: 150 };
    const a = createContextManager(opts);
    let history: Message[] = [{ role: "system", content: "sys" }];
    let compacted = false;
    for (let i = 0; !compacted; i++) {
      history = [...history, { role: "user", content: `${WORDS.join(" ")} ${i} `.repeat(10) }];
      compacted = (await a.compact(history)).compacted;
    }
    const saved = JSON.stringify(a.snapshot());
    const next = [...history, { role: "user" as const, content: "one more" }];
    const resume = decodeSnapshot(JSON.parse(saved));
    if (E.isLeft(resume)) throw new Error(resume.left.message);
    const b = createContextManager({ ...opts, resume: resume.right });
    expect(json((await b.compact(next)).messages)).toBe(json((await a.compact(next)).messages));
  });
});
