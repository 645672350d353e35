// One run's index entries reach the index in one batch at its end: an interrupted run writes none.
import { EVICTION_NOTE_PREFIX } from "@cc/test-support/hierarchical";
import { memoryIndex, type IndexEntry, type SegmentIndex } from "@cc/search";
import { type Message } from "@cc/messages";
import { estimateCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { decodeContextManager } from "@cc/context";
import { stagedIndex } from "../src/staged-index.js";

type Counter = ReturnType<typeof estimateCounter>;
/** One forced hierarchical turn of a manager over `index` (budget 1500, tail 2, namespace "run"). */
function runTurn(
  history: readonly Message[],
  index: SegmentIndex,
  counter: Counter = estimateCounter(),
  signal?: AbortSignal,
) {
  const manager = decodeContextManager({
    maxTokens: 1500,
    threshold: 1,
    preserveLast: 2,
    namespace: "run",
    noteTokens: 200,
    counter,
    index,
    now: () => 1_700_000_000_000,
  });
  if (E.isLeft(manager)) throw new Error(manager.left.message);
  return manager.right.compactTE(history, { force: true, ...(signal === undefined ? {} : { signal }) })();
}
const messages: readonly Message[] = [
  { role: "system", content: "You are a coding agent." },
  ...Array.from({ length: 12 }, (_, i): Message[] => [
    { role: "user", content: `Step ${i}: read src/module${i}.py and explain the error ${"in detail ".repeat(60)}` },
    {
      role: "assistant",
      content: `Module ${i} raises KeyError in parse_${i}; ${"the header row is missing ".repeat(30)}`,
    },
  ]).flat(),
];

/** A memory index that records every write call. */
function recording(): { readonly index: SegmentIndex; readonly calls: (readonly IndexEntry[])[] } {
  const inner = memoryIndex();
  const calls: (readonly IndexEntry[])[] = [];
  return {
    calls,
    index: {
      ...inner,
      write: (entries) => {
        calls.push(entries);
        return inner.write(entries);
      },
    },
  };
}

describe("index writes of one turn", () => {
  it("reach the index in one batch, after the whole pass", async () => {
    const { index, calls } = recording();
    const r = await runTurn(messages, index);
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    expect(r.right.evicted.length).toBeGreaterThan(2);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.map((e) => e.id)).toEqual(r.right.evicted.map((e) => e.id));
    expect(E.getOrElse(() => -1)(await index.count("run")())).toBe(r.right.evicted.length);
  });

  it("an interrupted run (aborted before its end) leaves nothing of itself in the index", async () => {
    const { index, calls } = recording();
    const controller = new AbortController();
    const counter = estimateCounter();
    let evictionStarted = false;
    // Abort while the pass is under way: after the index got its first entry (before the fix) or,
    // with staging, once the pass has gone past its writes (the note is being counted).
    const watched: SegmentIndex = {
      ...index,
      write: (entries) => {
        evictionStarted = true;
        return index.write(entries);
      },
    };
    const interrupting = {
      ...counter,
      count: (text: string) => {
        if (evictionStarted || text.startsWith(EVICTION_NOTE_PREFIX)) controller.abort();
        return counter.count(text);
      },
    };
    const r = await runTurn(messages, watched, interrupting, controller.signal);
    expect(r).toMatchObject(E.left({ _tag: "Aborted" }));
    expect(calls).toHaveLength(0);
    expect(E.getOrElse(() => -1)(await index.count()())).toBe(0);
  });

  it("a batch the index refuses leaves nothing and says how many entries were not written", async () => {
    const inner = memoryIndex();
    const failing: SegmentIndex = {
      ...inner,
      write: () => async () =>
        E.left({ _tag: "StorageError", backend: "memory", operation: "write", message: "disk full" }),
    };
    const r = await runTurn(messages, failing);
    expect(r).toMatchObject(E.left({ _tag: "IndexWriteFailed", subject: "index" }));
    expect(E.isLeft(r) && r.left._tag === "IndexWriteFailed" && r.left.message).toContain("disk full");
    expect(E.isLeft(r) && r.left._tag === "IndexWriteFailed" && r.left.entries).toBeGreaterThan(2);
    expect(E.getOrElse(() => -1)(await inner.count()())).toBe(0);
  });

  it("stagedIndex validates writes at once, keeps the last write of an id and reads the real index", async () => {
    const inner = memoryIndex();
    const staged = stagedIndex(inner);
    const entry = {
      id: "a",
      namespace: "n",
      kind: "k",
      summary: "s",
      content: "c",
      tokenCost: 1,
      createdAt: 1,
      evictedAt: 2,
      metadata: {},
    };
    expect(await staged.write([{ ...entry, tokenCost: Number.NaN }])()).toMatchObject(
      E.left({ _tag: "InvalidInput", subject: "index entries" }),
    );
    expect(await staged.write([entry])()).toEqual(E.right({ written: 1 }));
    expect(await staged.write([{ ...entry, summary: "newer" }])()).toEqual(E.right({ written: 1 }));
    expect(staged.pending()).toBe(1);
    expect(await staged.expand("a", "n")()).toEqual(E.right(undefined));
    expect(await staged.commit()()).toEqual(E.right({ written: 1 }));
    expect(staged.pending()).toBe(0);
    expect(await staged.expand("a", "n")()).toMatchObject(E.right({ summary: "newer" }));
    expect(await staged.close()()).toEqual(E.right(undefined));
    expect(await inner.count()()).toEqual(E.right(1));
  });

  it("stagedIndex refuses at once, with IdConflict, a write the commit would refuse: another original staged or in the real index", async () => {
    const inner = memoryIndex();
    const entry = {
      id: "a",
      namespace: "n",
      kind: "k",
      summary: "s",
      content: "c",
      tokenCost: 1,
      createdAt: 1,
      evictedAt: 2,
      metadata: {},
    };
    expect(E.isRight(await inner.write([{ ...entry, id: "held", content: "theirs" }])())).toBe(true);
    const staged = stagedIndex(inner);
    expect(await staged.write([entry, { ...entry, id: "held" }])()).toMatchObject(
      E.left({ _tag: "IdConflict", backend: "memory", namespace: "n", id: "held" }),
    );
    expect(staged.pending()).toBe(0);
    expect(await staged.write([{ ...entry, id: "held", content: "theirs", summary: "mine" }])()).toEqual(
      E.right({ written: 1 }),
    );
    expect(await staged.write([entry])()).toEqual(E.right({ written: 1 }));
    expect(await staged.write([{ ...entry, content: "other" }])()).toMatchObject(
      E.left({ _tag: "IdConflict", id: "a" }),
    );
    expect(await staged.write([{ ...entry, id: "a", namespace: "elsewhere", content: "other" }])()).toEqual(
      E.right({ written: 1 }),
    );
    expect(staged.pending()).toBe(3);
    expect(await staged.commit()()).toEqual(E.right({ written: 3 }));
    expect(await inner.expand("held", "n")()).toMatchObject(E.right({ content: "theirs", summary: "mine" }));
    expect(await inner.expand("a", "n")()).toMatchObject(E.right({ content: "c" }));
  });

  it("stagedIndex refuses a write it cannot check (the real index fails to read) with the real index's error", async () => {
    const inner = memoryIndex();
    await inner.close()();
    const staged = stagedIndex(inner);
    const entry = {
      id: "a",
      namespace: "n",
      kind: "k",
      summary: "s",
      content: "c",
      tokenCost: 1,
      createdAt: 1,
      evictedAt: 2,
      metadata: {},
    };
    expect(await staged.write([entry])()).toEqual(E.left({ _tag: "IndexClosed", backend: "memory" }));
    expect(staged.pending()).toBe(0);
  });
});
