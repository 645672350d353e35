// The option objects of the session layer that are not plain settings: the compactor's
// collaborators and the chat session's options. Each refuses a typo'd key, NaN, ±Infinity and
// negatives with the @cc/validate InvalidOptions shape, naming the field.
import * as E from "fp-ts/lib/Either.js";
import * as O from "fp-ts/lib/Option.js";
import { CcError } from "@cc/validate";
import { describe, expect, it } from "vitest";
import { createChatSession, decodeSessionCompactor, memoryStore, type SessionCompactor } from "@cc/session";
import { defaultTranscriptLimits } from "@cc/test-support/lcm";
import { offlineProvider } from "@cc/lcm";
import { left, right } from "./support.js";

/** What `make` throws. */
function thrown(make: () => unknown): unknown {
  try {
    make();
  } catch (e) {
    return e;
  }
  return undefined;
}

const base = () => ({ store: memoryStore(), provider: offlineProvider(), config: { maxTokens: 1000 } });
const problemsOf = (made: ReturnType<typeof decodeSessionCompactor>): readonly string[] => {
  if (E.isRight(made)) return expect.fail("expected the deps to be refused");
  expect(made.left).toMatchObject({ _tag: "InvalidOptions", subject: "session compactor deps" });
  return made.left.problems.map((p) => p.message);
};

describe("decodeSessionCompactor deps", () => {
  it("refuses a typo'd key with a suggestion", () => {
    expect(problemsOf(decodeSessionCompactor({ ...base(), nowFn: () => 0 } as never))).toEqual([
      expect.stringMatching(/^nowFn: unknown field/),
    ]);
    expect(problemsOf(decodeSessionCompactor({ ...base(), evnets: undefined } as never))).toEqual([
      "evnets: unknown field (did you mean events?)",
    ]);
  });

  it("refuses NaN, ±Infinity and negative transcript limits, naming the limit", () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
      const lines = problemsOf(
        decodeSessionCompactor({ ...base(), transcriptLimits: { ...defaultTranscriptLimits, messageHead: bad } }),
      );
      expect(lines).toEqual([
        `transcriptLimits.messageHead: expected a whole number of characters ≥ 0, got ${String(bad)}`,
      ]);
    }
  });

  it("refuses a store or provider without its methods and a clock that is not a function", () => {
    expect(problemsOf(decodeSessionCompactor({ ...base(), store: {} as never }))).toEqual([
      expect.stringMatching(/^store: expected a SummaryStore/),
    ]);
    expect(problemsOf(decodeSessionCompactor({ ...base(), provider: { name: "x" } as never }))).toEqual([
      expect.stringMatching(/^provider: expected a Provider/),
    ]);
    expect(problemsOf(decodeSessionCompactor({ ...base(), now: 5 as never }))).toEqual([
      "now: expected a function, got 5",
    ]);
  });

  it("accepts every documented field", () => {
    expect(
      E.isRight(decodeSessionCompactor({ ...base(), now: () => 0, transcriptLimits: defaultTranscriptLimits })),
    ).toBe(true);
  });
});

describe("createChatSession options", () => {
  const compactor = (): SessionCompactor => {
    const made = decodeSessionCompactor(base());
    if (E.isLeft(made)) return expect.fail(made.left.message);
    return made.right;
  };

  it("refused options throw the one CcError at construction, and nothing is stored", async () => {
    const store = memoryStore();
    const make = (): unknown =>
      createChatSession({ store, compactor: compactor(), stackId: "s", systemPromt: "x" } as never);
    expect(make).toThrow(CcError);
    expect(thrown(make)).toMatchObject({
      _tag: "InvalidOptions",
      subject: "chat session options",
      problems: [{ message: "systemPromt: unknown field (did you mean systemPrompt?)" }],
    });
    expect(await right(store.lastMessageId("s"))).toBe(0);
    expect(O.isNone(await right(store.latestSummary("s")))).toBe(true);
  });

  it("refuses NaN, ±Infinity and negative prune settings, and an empty stack id", async () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
      const make = (): unknown =>
        createChatSession({
          store: memoryStore(),
          compactor: compactor(),
          stackId: "s",
          prune: { maxChars: 2000, protectTurns: bad, protectResults: 0 },
        });
      expect(thrown(make)).toMatchObject({
        _tag: "InvalidOptions",
        problems: [{ path: "prune.protectTurns", message: expect.stringContaining(`got ${String(bad)}`) }],
      });
    }
    expect(
      thrown(() => createChatSession({ store: memoryStore(), compactor: compactor(), stackId: "" })),
    ).toMatchObject({ problems: [{ path: "stackId" }] });
  });
});

describe("tryCompact / forceCompact input", () => {
  it("refuses a typo'd key instead of ignoring it (an ignored ephemral: true would compact an ephemeral session)", async () => {
    const made = decodeSessionCompactor(base());
    if (E.isLeft(made)) return expect.fail(made.left.message);
    const store = made.right;
    expect(await left(store.tryCompact({ stackId: "s", lastInputTokens: 1, ephemral: true } as never))).toMatchObject({
      _tag: "InvalidInput",
      subject: "compaction input",
      problems: [{ message: "ephemral: unknown field (did you mean ephemeral?)" }],
    });
    expect(await left(store.forceCompact({ stackId: "s", ephemeral: "yes" } as never))).toMatchObject({
      problems: [{ path: "ephemeral" }],
    });
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1]) {
      expect(await left(store.tryCompact({ stackId: "s", lastInputTokens: bad }))).toMatchObject({
        problems: [
          {
            path: "lastInputTokens",
            message: `lastInputTokens: expected a finite number ≥ 0 (0 when the provider reported no usage), got ${String(bad)}`,
          },
        ],
      });
    }
  });
});
