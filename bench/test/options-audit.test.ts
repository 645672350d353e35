// Every opener and factory of every package decodes its options: an unknown key, NaN, ±Infinity,
// a negative or an out-of-range number is InvalidOptions naming the field (whether the opener
// returns an Either, a TaskEither, or throws an error carrying the typed failure).
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeAiSdkContext } from "@cc/ai-sdk";
import { parseCommand, readTranscript } from "@cc/cli";
import { createContextManager, decodeContextManager } from "@cc/context";
import { createAgentCompactor, createPromptCompressor } from "@cc/context/compat";
import { memoryIndex, openPostgresIndex, openSqliteIndex } from "@cc/search";
import { decodeCompactionMiddleware } from "@cc/langchain";
import { createLcmCompactor, offlineProvider, openAICompatibleProvider, truncateToBudget } from "@cc/lcm";
import { contextTools as mastraContextTools, decodeCompactionProcessor } from "@cc/mastra";
import { contextTools as agentsContextTools, decodeAgentsCompaction } from "@cc/openai-agents";
import { createEventBus, decodeSessionCompactor, memoryStore, openPostgresStore, openSqliteStore } from "@cc/session";
import { estimateCounter, memoCounter } from "@cc/tokens";

/** The typed failure of one opening, however the opener reports it; `undefined` when it accepted the options. */
async function failureOf(open: () => unknown): Promise<unknown> {
  let r: unknown;
  try {
    r = open();
    if (typeof r === "function") r = await (r as () => Promise<unknown>)();
    if (r instanceof Promise) r = await r;
  } catch (e) {
    return typeof e === "object" && e !== null && "error" in e ? e.error : e;
  }
  if (typeof r === "object" && r !== null && "_tag" in r && (r._tag === "Left" || r._tag === "Right"))
    return E.isLeft(r as E.Either<unknown, unknown>) ? (r as E.Left<unknown>).left : undefined;
  return undefined;
}

interface Row {
  readonly name: string;
  /** Valid options to start from. */
  readonly base: Readonly<Record<string, unknown>>;
  /** A numeric field, and the opener. */
  readonly field: string;
  /** The path the problem names when it is not `field` (a nested object decoded with a subject of its own). */
  readonly reported?: string;
  readonly open: (options: Readonly<Record<string, unknown>>) => unknown;
}

const noConnect = "postgres://cc@127.0.0.1:9/none";
const rows: readonly Row[] = [
  { name: "tokens estimateCounter", base: {}, field: "charsPerToken", open: (o) => estimateCounter(o as never) },
  {
    name: "tokens memoCounter",
    base: {},
    field: "maxEntries",
    open: (o) => memoCounter(estimateCounter(), o as never),
  },
  { name: "hierarchical openSqliteIndex", base: {}, field: "busyTimeoutMs", open: (o) => openSqliteIndex(o as never) },
  {
    name: "hierarchical openPostgresIndex",
    base: { connection: noConnect },
    field: "connectTimeoutMs",
    open: (o) => openPostgresIndex(o as never),
  },
  {
    name: "session openSqliteStore",
    base: { path: ":memory:" },
    field: "busyTimeoutMs",
    open: (o) => openSqliteStore(o as never),
  },
  {
    name: "session openPostgresStore",
    base: { connection: noConnect },
    field: "maxConnections",
    open: (o) => openPostgresStore(o as never),
  },
  {
    name: "session decodeSessionCompactor",
    base: { store: memoryStore(), provider: offlineProvider(), config: { maxTokens: 1000 } },
    field: "config.maxTokens",
    reported: "maxTokens",
    open: (o) => decodeSessionCompactor(o as never),
  },
  {
    name: "lcm openAICompatibleProvider",
    base: { baseUrl: "http://127.0.0.1:9/v1" },
    field: "maxRetries",
    open: (o) => openAICompatibleProvider(o as never),
  },
  {
    name: "lcm createLcmCompactor",
    base: {},
    field: "timeoutMs",
    open: (o) => createLcmCompactor(o as never).compact([{ role: "user", content: "hi" }], { maxTokens: 100 }),
  },
  {
    name: "context decodeContextManager",
    base: { maxTokens: 1000 },
    field: "preserveLast",
    open: (o) => decodeContextManager(o),
  },
  {
    name: "context createAgentCompactor",
    base: {},
    field: "preserveLast",
    open: (o) => createAgentCompactor(o as never).compact([{ role: "user", content: "hi" }], "", 1000),
  },
  {
    name: "context createPromptCompressor",
    base: { counter: estimateCounter() },
    field: "minTokens",
    open: (o) => createPromptCompressor(o as never),
  },
  {
    name: "mastra decodeCompactionProcessor",
    base: { maxTokens: 1000 },
    field: "toolResultMaxTokens",
    open: (o) => decodeCompactionProcessor(o),
  },
  {
    name: "ai-sdk decodeAiSdkContext",
    base: { maxTokens: 1000 },
    field: "cacheSize",
    open: (o) => decodeAiSdkContext(o),
  },
  {
    name: "openai-agents decodeAgentsCompaction",
    base: { maxTokens: 1000 },
    field: "maxHits",
    open: (o) => decodeAgentsCompaction(o),
  },
  {
    name: "hierarchical memoryIndex",
    base: {},
    field: "summaryBoost",
    open: (o) => memoryIndex(o as never).search("x"),
  },
  { name: "lcm offlineProvider", base: {}, field: "defaultMaxTokens", open: (o) => offlineProvider(o as never) },
  {
    name: "lcm truncateToBudget",
    base: {},
    field: "sourceTokens",
    open: (o) => truncateToBudget("some text", 2, estimateCounter(), o as never),
  },
  {
    name: "context manager.compactTE call options",
    base: {},
    field: "maxTokens",
    open: (o) => createContextManager({ maxTokens: 1000 }).compactTE([{ role: "user", content: "hi" }], o as never),
  },
  {
    name: "mastra contextTools",
    base: {},
    field: "maxExpandChars",
    open: (o) => mastraContextTools(createContextManager({ maxTokens: 1000 }), o as never),
  },
  {
    name: "openai-agents contextTools",
    base: { maxHits: 5, maxExpandChars: 8000 },
    field: "maxHits",
    open: (o) => agentsContextTools(createContextManager({ maxTokens: 1000 }), o as never),
  },
  {
    name: "langchain decodeCompactionMiddleware",
    base: { maxTokens: 1000 },
    field: "maxToolResultTokens",
    open: (o) => decodeCompactionMiddleware(o),
  },
];

const set = (base: Readonly<Record<string, unknown>>, path: string, value: unknown): Record<string, unknown> => {
  const [head, ...rest] = path.split(".");
  return {
    ...base,
    [head!]: rest.length === 0 ? value : set((base[head!] ?? {}) as Record<string, unknown>, rest.join("."), value),
  };
};

describe("every opener decodes its options", () => {
  for (const row of rows) {
    it(`${row.name}: an unknown key, NaN, ±Infinity, a negative and a huge number are InvalidOptions naming the field`, async () => {
      const cases: readonly (readonly [Record<string, unknown>, string])[] = [
        [{ ...row.base, zzUnknownOption: 1 }, "zzUnknownOption"],
        ...[Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -1, 1e300].map(
          (bad) => [set(row.base, row.field, bad), row.reported ?? row.field] as const,
        ),
      ];
      for (const [options, field] of cases) {
        const failure = await failureOf(() => row.open(options));
        expect({
          options: JSON.stringify(options, (_, v: unknown) =>
            typeof v === "number" && !Number.isFinite(v) ? String(v) : v,
          ),
          failure,
        }).toMatchObject({
          failure: {
            _tag: "InvalidOptions",
            problems: expect.arrayContaining([expect.objectContaining({ path: field })]),
          },
        });
      }
    });
  }
});

/** The command line's numeric flags: each with the command it belongs to and the spellings it is named by in a message. */
const flags: readonly { readonly flag: string; readonly command: readonly string[]; readonly named: string }[] = [
  { flag: "--budget", command: ["compact"], named: "--budget" },
  { flag: "-b", command: ["compact"], named: "-b" },
  { flag: "--soft", command: ["compact"], named: "--soft" },
  { flag: "--hard", command: ["compact"], named: "--hard" },
  { flag: "--preserve-last", command: ["compact"], named: "--preserve-last" },
  { flag: "-p", command: ["compact"], named: "-p" },
  { flag: "-k", command: ["search", "--index", "x.db", "q"], named: "-k" },
];

describe("the command line decodes its options", () => {
  for (const { flag, command, named } of flags) {
    it(`${flag}: NaN, ±Infinity, a negative, a huge number and an empty value are usage errors naming the flag`, () => {
      for (const bad of ["NaN", "Infinity", "-Infinity", "-1", "1e300", "", "12abc"]) {
        const parsed = parseCommand([...command, `${flag}=${bad}`].map((a) => (a.startsWith("-k=") ? `-k${bad}` : a)));
        expect({ bad, parsed }).toMatchObject({
          parsed: { _tag: "Left", left: { _tag: "UsageError", message: expect.stringContaining(named) } },
        });
      }
    });
  }
  it("an unknown flag is a usage error naming it", () => {
    for (const args of [
      ["compact", "--budjet=100"],
      ["search", "--index", "x.db", "--kk", "3", "q"],
      ["mcp", "--index", "x.db", "--zz"],
    ]) {
      const unknown = args.find((a) => a.startsWith("--") && !a.startsWith("--index"))!.split("=")[0]!;
      expect({ args, parsed: parseCommand(args) }).toMatchObject({
        parsed: { _tag: "Left", left: { _tag: "UsageError", message: expect.stringContaining(unknown) } },
      });
    }
  });
  it("the same values in range are accepted (the checks above are not refusing everything)", () => {
    expect(parseCommand(["compact", "--budget=1000", "--soft=0.4", "--hard=0.9", "--preserve-last=0"])).toMatchObject({
      _tag: "Right",
      right: { _tag: "Compact" },
    });
    expect(parseCommand(["search", "--index", "x.db", "-k5", "q"])).toMatchObject({
      _tag: "Right",
      right: { _tag: "Search", k: 5 },
    });
  });
});

describe("options without a numeric field are decoded too", () => {
  it("createEventBus: an unknown key or a reporter that is not a function is InvalidOptions naming the field", async () => {
    for (const [options, field] of [
      [{ onSubscriberEror: () => undefined }, "onSubscriberEror"],
      [{ onSubscriberError: "log" }, "onSubscriberError"],
    ] as const) {
      expect(await failureOf(() => createEventBus(options as never))).toMatchObject({
        _tag: "InvalidOptions",
        problems: [expect.objectContaining({ path: field })],
      });
    }
    expect(await failureOf(() => createEventBus({ onSubscriberError: () => undefined }))).toBeUndefined();
  });
  it("readTranscript: an unknown format or key is InvalidOptions naming the field (it was an undefined result)", async () => {
    for (const [options, field] of [
      [{ format: "xml" }, "format"],
      [{ fromat: "jsonl" }, "fromat"],
      [{ source: "" }, "source"],
    ] as const) {
      expect(await failureOf(() => readTranscript("[]", options as never))).toMatchObject({
        _tag: "InvalidOptions",
        problems: [expect.objectContaining({ path: field })],
      });
    }
    expect(readTranscript('[{"role":"user","content":"hi"}]', { format: "openai-json" })).toMatchObject({
      _tag: "Right",
    });
  });
  it("manager.compactTE: a misspelt call option is refused, not ignored", async () => {
    const r = await createContextManager({ maxTokens: 1000 }).compactTE([{ role: "user", content: "hi" }], {
      forse: true,
    } as never)();
    expect(r).toMatchObject({
      _tag: "Left",
      left: {
        _tag: "InvalidOptions",
        subject: "compact call options",
        problems: [expect.objectContaining({ path: "forse" })],
      },
    });
  });
});
