// Runs the README's example verbatim (between the markers) and checks what it prints.
import { describe, expect, it, vi } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { extractiveSummarizer, hierarchicalCompact, indexWriter } from "@cc/hierarchical";
import { openSqliteIndex } from "@cc/search";

describe("README example", () => {
  it("evicts, writes summaries, searches and expands", async () => {
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    // README-EXAMPLE-START
    const log = console.log;
    const opened = await openSqliteIndex({ path: ":memory:" })(); // or a file: "journal.db"
    if (E.isLeft(opened)) throw new Error(JSON.stringify(opened.left));
    const index = opened.right;

    const now = 1_735_689_600_000;
    const segments = [
      {
        id: "t1",
        kind: "tool_result",
        tokenCost: 900,
        createdAt: now - 3_600_000,
        content: "Traceback (most recent call last):\n  File \"src/reader.py\", line 12\nKeyError: 'header'",
      },
      {
        id: "f1",
        kind: "file",
        tokenCost: 700,
        createdAt: now - 3_000_000,
        content: "def parse_header(row):\n    return row.split(',')",
      },
      { id: "u1", kind: "message", tokenCost: 40, createdAt: now, content: "Please fix the CSV reader." },
    ];

    const result = await hierarchicalCompact(segments, {
      target: { maxTokens: 100 }, // token budget after eviction
      scoring: { now: () => now }, // importance options (clock injected)
      summarize: extractiveSummarizer(), // or providerSummarizer(provider, { model })
      writer: indexWriter(index, { namespace: "session-1" }),
      concurrency: 4,
    })();
    if (E.isLeft(result)) throw new Error(JSON.stringify(result.left));
    const { keep, written, skipped, failed } = result.right;
    log(
      "kept",
      keep.map((s) => s.id),
      "written",
      written.length,
      "skipped",
      skipped.length,
      "failed",
      failed.length,
    );

    // What left is searchable and expands back byte for byte (the agent's tools over this index,
    // search_context / expand_context, are @cc/context's contextToolCore(index, { namespace })).
    const found = await index.search("KeyError reader.py", { namespace: "session-1" })();
    if (E.isRight(found)) log("hit", found.right[0]?.id, found.right[0]?.summary);
    const original = await index.expand("t1", "session-1")();
    if (E.isRight(original)) log("original", original.right?.content);

    await index.close()();
    // README-EXAMPLE-END
    const logs = spy.mock.calls;
    spy.mockRestore();
    expect(logs[0]).toEqual(["kept", ["u1"], "written", 2, "skipped", 0, "failed", 0]);
    expect(logs[1]).toEqual(["hit", "t1", expect.stringContaining("KeyError: 'header'") as unknown]);
    expect(logs[2]).toEqual(["original", segments[0]!.content]);
  });
});
