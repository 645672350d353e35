// A failing dependency or index is reported as what it is, carrying the original typed error (or
// the thrown value): never re-labelled as bad input, never reduced to a tag.
import { memoryIndex, type IndexError, type SegmentIndex } from "@cc/search";
import type { Message } from "@cc/messages";
import { estimateCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { ContextManagerError, createContextManager } from "@cc/context";

const history: readonly Message[] = [
  { role: "system", content: "You are a coding agent." },
  ...Array.from({ length: 12 }, (_, i): Message[] => [
    { role: "user", content: `Step ${i}: read src/module${i}.py and explain the error ${"in detail ".repeat(60)}` },
    {
      role: "assistant",
      content: `Module ${i} raises KeyError in parse_${i}; ${"the header row is missing ".repeat(30)}`,
    },
  ]).flat(),
];
const diskFull: IndexError = {
  _tag: "StorageError",
  backend: "memory",
  operation: "write",
  message: "disk full",
  code: "SQLITE_FULL",
};
const readFailed: IndexError = {
  _tag: "StorageError",
  backend: "memory",
  operation: "search",
  message: "file is not a database",
  code: "SQLITE_NOTADB",
};
const failing = (): SegmentIndex => ({
  ...memoryIndex(),
  write: () => async () => E.left(diskFull),
  search: () => async () => E.left(readFailed),
  expand: () => async () => E.left(readFailed),
});
const manager = (index: SegmentIndex) =>
  createContextManager({
    maxTokens: 1500,
    threshold: 1,
    preserveLast: 2,
    noteTokens: 200,
    counter: estimateCounter(),
    index,
    now: () => 1_700_000_000_000,
  });

describe("a failing dependency or index", () => {
  it("a refused index batch is IndexWriteFailed carrying the index's own typed error", async () => {
    // The index reads fine (each staged unit's id is checked against it first) and refuses the write.
    const refusesWrites: SegmentIndex = { ...memoryIndex(), write: () => async () => E.left(diskFull) };
    const r = await manager(refusesWrites).compactTE(history, { force: true })();
    if (E.isRight(r)) return expect.fail("expected the turn to fail");
    expect(r.left).toMatchObject({ _tag: "IndexWriteFailed", subject: "index", cause: diskFull });
  });

  it("a counter that throws is DependencyFailed carrying the thrown error, not InvalidInput", async () => {
    const boom = new Error("tokenizer crashed");
    const counter = {
      ...estimateCounter(),
      countMessages: (): number => {
        throw boom;
      },
    };
    const m = createContextManager({ maxTokens: 1000, counter });
    const r = await m.compactTE(history)();
    if (E.isRight(r)) return expect.fail("expected the turn to fail");
    expect(r.left).toMatchObject({
      _tag: "DependencyFailed",
      subject: "turn",
      problems: ["a dependency threw: tokenizer crashed"],
    });
    expect(r.left._tag === "DependencyFailed" && r.left.cause).toBe(boom);
    const rejected = await m.compact(history).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(ContextManagerError);
    expect((rejected as ContextManagerError).cause).toBe(boom);
  });

  it("search and expand on a failing index reject with IndexReadFailed carrying the index's typed error", async () => {
    const m = manager(failing());
    for (const [operation, call] of [
      ["search", () => m.search("parse")],
      ["expand", () => m.expand("u1")],
    ] as const) {
      const rejected = await call().catch((e: unknown) => e);
      expect(rejected).toBeInstanceOf(ContextManagerError);
      const error = (rejected as ContextManagerError).error;
      expect(error).toMatchObject({ _tag: "IndexReadFailed", subject: operation, cause: readFailed });
      expect(error._tag === "IndexReadFailed" && error.message).toContain("file is not a database");
      expect((rejected as ContextManagerError).cause).toEqual(readFailed);
    }
  });
});
