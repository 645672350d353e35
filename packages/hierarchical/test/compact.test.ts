import type { Segment } from "@cc/importance";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import type { HierarchicalCompactOptions, HierarchicalResult, Summarizer } from "../src/compact.js";
import { hierarchicalCompact } from "../src/compact.js";
import { memoryIndex, openSqliteIndex } from "@cc/search";
import { extractiveSummarizer } from "../src/summarize.js";
import { indexWriter, summaryWriterFunc } from "../src/writer.js";
import { right, runs } from "../../search/test/support/contract.js";

const NOW = 1_735_689_600_000;
const opts = { now: () => NOW };
const seg = (id: string, tokenCost: number, ageMs = 0, extra: Partial<Segment> = {}): Segment => ({
  id,
  content: `content of ${id}`,
  tokenCost,
  createdAt: NOW - ageMs,
  lastAccessed: NOW - ageMs,
  ...extra,
});

function ok<A>(r: E.Either<unknown, A>): A {
  if (E.isLeft(r)) throw new Error(`expected Right, got ${JSON.stringify(r.left)}`);
  return r.right;
}

/** Every evicted position appears in exactly one bucket. */
function partitioned<S extends Segment>(r: HierarchicalResult<S>): boolean {
  const seen = [...r.written, ...r.skipped, ...r.failed].map((o) => o.position).sort((a, b) => a - b);
  return seen.length === r.evict.length && seen.every((p, i) => p === i);
}

const collect = () => {
  const calls: [string, string][] = [];
  return { calls, writer: summaryWriterFunc<Segment>((s, summary) => void calls.push([s.id, summary])) };
};

describe("hierarchicalCompact", () => {
  const four = [
    seg("a", 100, 4 * 3600_000),
    seg("b", 100, 3 * 3600_000),
    seg("c", 100, 2 * 3600_000),
    seg("fresh", 100, 0),
  ];

  it("summarises and writes every evicted segment, keeping input order", async () => {
    const { calls, writer } = collect();
    const r = ok(
      await hierarchicalCompact(four, {
        target: { maxTokens: 150 },
        scoring: opts,
        summarize: (s) => `summary of ${s.id}`,
        writer,
      })(),
    );
    expect(r.evict.map((s) => s.id)).toEqual(["a", "b", "c"]);
    expect(r.keep.map((s) => s.id)).toEqual(["fresh"]);
    expect(r.written.map((o) => o.segment.id)).toEqual(["a", "b", "c"]);
    expect(calls.sort()).toEqual([
      ["a", "summary of a"],
      ["b", "summary of b"],
      ["c", "summary of c"],
    ]);
    expect(r.evictedAt).toBe(NOW);
    expect(r.budgetMet).toBe(true);
  });

  it("GO-FINDINGS 11: a summariser that throws, rejects or returns Left is caught and reported per segment", async () => {
    const summarize: Summarizer = (s) => {
      if (s.id === "a") throw new Error("boom a");
      if (s.id === "b") return Promise.reject(new Error("boom b"));
      if (s.id === "c") return E.left({ _tag: "ProviderTimeout", timeoutMs: 5 });
      return "fine";
    };
    const { writer } = collect();
    const r = ok(
      await hierarchicalCompact(four, { target: { maxTokens: 1 }, scoring: opts, summarize, writer, concurrency: 2 })(),
    );
    expect(r.evict).toHaveLength(4);
    expect(r.written.map((o) => o.segment.id)).toEqual(["fresh"]);
    expect(r.failed.map((o) => [o.segment.id, o.error._tag])).toEqual([
      ["a", "SummarizeFailed"],
      ["b", "SummarizeFailed"],
      ["c", "SummarizeFailed"],
    ]);
    expect(JSON.stringify(r.failed.map((o) => (o.error._tag === "SummarizeFailed" ? o.error.message : "")))).toContain(
      "boom b",
    );
    expect(partitioned(r)).toBe(true);
  });

  it("GO-FINDINGS 11: every writer failure is reported, not only the first (throw, reject, Left)", async () => {
    const writer = {
      writeSummary: (s: Segment) => {
        if (s.id === "a") throw new Error("sync throw");
        if (s.id === "b") return () => Promise.reject(new Error("rejected task"));
        if (s.id === "c")
          return summaryWriterFunc(async () => Promise.reject(new Error("adapter reject"))).writeSummary(s, "", {
            evictedAt: 0,
            signal: new AbortController().signal,
          });
        return async () => E.right(undefined);
      },
    };
    const r = ok(
      await hierarchicalCompact(four, { target: { maxTokens: 1 }, scoring: opts, summarize: () => "x", writer })(),
    );
    expect(r.failed.map((o) => o.segment.id)).toEqual(["a", "b", "c"]);
    expect(r.failed.every((o) => o.error._tag === "WriteFailed")).toBe(true);
    expect(
      JSON.stringify(
        r.failed.map((o) =>
          o.error._tag === "WriteFailed" ? o.error.error._tag === "WriterThrew" && o.error.error.message : "",
        ),
      ),
    ).toBe(JSON.stringify(["sync throw", "rejected task", "adapter reject"]));
    expect(r.written.map((o) => o.segment.id)).toEqual(["fresh"]);
  });

  it("skips empty and whitespace-only summaries, and reports a non-string summary", async () => {
    const { calls, writer } = collect();
    const summarize = ((s: Segment) =>
      s.id === "a" ? "" : s.id === "b" ? "  \n" : s.id === "c" ? 42 : "kept") as unknown as Summarizer;
    const r = ok(await hierarchicalCompact(four, { target: { maxTokens: 1 }, scoring: opts, summarize, writer })());
    expect(r.skipped.map((o) => o.segment.id)).toEqual(["a", "b"]);
    expect(r.failed.map((o) => [o.segment.id, o.error._tag])).toEqual([["c", "InvalidSummary"]]);
    expect(calls).toEqual([["fresh", "kept"]]);
  });

  it("never has more summaries in flight than the concurrency limit", async () => {
    const many = Array.from({ length: 40 }, (_, i) => seg(`s${i}`, 10, i * 1000));
    let inFlight = 0;
    let peak = 0;
    const summarize: Summarizer = async (s) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return s.id;
    };
    const r = ok(
      await hierarchicalCompact(many, {
        target: { maxTokens: 1 },
        scoring: opts,
        summarize,
        writer: collect().writer,
        concurrency: 3,
      })(),
    );
    expect(r.written).toHaveLength(40);
    expect(peak).toBe(3);
  });

  it("honours the abort signal: nothing new starts, the rest is reported Aborted", async () => {
    const controller = new AbortController();
    const many = Array.from({ length: 10 }, (_, i) => seg(`s${i}`, 10, i * 1000));
    let started = 0;
    const summarize: Summarizer = (s) => {
      started++;
      if (started === 2) controller.abort();
      return s.id;
    };
    const r = ok(
      await hierarchicalCompact(many, {
        target: { maxTokens: 1 },
        scoring: opts,
        summarize,
        writer: collect().writer,
        concurrency: 1,
        signal: controller.signal,
      })(),
    );
    expect(r.aborted).toBe(true);
    expect(r.written).toHaveLength(1);
    expect(r.failed.filter((o) => o.error._tag === "Aborted")).toHaveLength(9);
    expect(partitioned(r)).toBe(true);

    const pre = AbortSignal.abort();
    const r2 = ok(
      await hierarchicalCompact(many, {
        target: { maxTokens: 1 },
        scoring: opts,
        summarize: () => "x",
        writer: collect().writer,
        signal: pre,
      })(),
    );
    expect(r2.failed.map((o) => o.error._tag)).toEqual(Array(10).fill("Aborted"));
  });

  it("GO-FINDINGS 2: duplicate ids are evicted by position; the later twin is reported, never overwrites", async () => {
    const twins = [seg("x", 1000, 3600_000), seg("x", 1000, 3600_000), seg("y", 10, 0)];
    const { calls, writer } = collect();
    const r = ok(
      await hierarchicalCompact(twins, {
        target: { maxTokens: 1500 },
        scoring: opts,
        summarize: (s) => s.content,
        writer,
      })(),
    );
    expect(r.evict).toHaveLength(1);
    const both = ok(
      await hierarchicalCompact(twins, {
        target: { maxTokens: 5 },
        scoring: opts,
        summarize: (s) => s.content,
        writer,
      })(),
    );
    expect(both.evict.map((s) => s.id)).toEqual(["x", "x", "y"]);
    expect(both.failed.map((o) => [o.position, o.error])).toEqual([[1, { _tag: "DuplicateId", firstPosition: 0 }]]);
    expect(calls.length).toBe(1 + 2);
  });

  it("rejects invalid target, options, segments and concurrency with messages naming the field", async () => {
    const w = collect().writer;
    const bad = async (r: Promise<E.Either<unknown, unknown>>, needle: string) => {
      const x = await r;
      expect(E.isLeft(x)).toBe(true);
      expect(JSON.stringify(x)).toContain(needle);
    };
    await bad(
      hierarchicalCompact(four, {
        target: { maxTokens: Number.NaN },
        scoring: opts,
        summarize: () => "x",
        writer: w,
      })(),
      "maxTokens",
    );
    await bad(
      hierarchicalCompact(four, {
        target: { maxTokens: 10 },
        scoring: { ...opts, recencyWeight: -1 },
        summarize: () => "x",
        writer: w,
      })(),
      "recencyWeight",
    );
    await bad(
      hierarchicalCompact([seg("a", Number.NaN)], {
        target: { maxTokens: 10 },
        scoring: opts,
        summarize: () => "x",
        writer: w,
      })(),
      "tokenCost",
    );
    for (const concurrency of [0, -1, 1.5, Number.NaN, 1e9])
      await bad(
        hierarchicalCompact(four, {
          target: { maxTokens: 10 },
          scoring: opts,
          summarize: () => "x",
          writer: w,
          concurrency,
        })(),
        "concurrency",
      );
  });

  it("every refusal has the one @cc/validate shape; the options object is closed; the clock is required, never Date.now()", async () => {
    const w = collect().writer;
    const left = async (r: Promise<E.Either<unknown, unknown>>): Promise<unknown> => {
      const x = await r;
      if (E.isRight(x)) throw new Error("expected a refusal");
      return x.left;
    };
    expect(
      await left(
        hierarchicalCompact(four, {
          target: { maxTokens: 10 },
          scoring: opts,
          summarize: () => "x",
          writer: w,
          concurrency: 0,
        })(),
      ),
    ).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ path: "concurrency", message: "concurrency: expected an integer in [1, 256], got 0" }],
    });
    const typo = await left(
      hierarchicalCompact(four, {
        target: { maxTokens: 10 },
        scoring: opts,
        summarize: () => "x",
        writer: w,
        concurency: 2,
      } as unknown as HierarchicalCompactOptions)(),
    );
    expect(typo).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ message: "concurency: unknown field (did you mean concurrency?)" }],
    });
    expect(
      await left(
        hierarchicalCompact(four, {
          target: { maxTokens: Number.NaN },
          scoring: opts,
          summarize: () => "x",
          writer: w,
        })(),
      ),
    ).toMatchObject({
      _tag: "InvalidOptions",
      subject: "eviction target",
    });
    expect(
      await left(
        hierarchicalCompact([seg("a", -1)], {
          target: { maxTokens: 10 },
          scoring: opts,
          summarize: () => "x",
          writer: w,
        })(),
      ),
    ).toMatchObject({
      _tag: "InvalidInput",
      subject: "segments",
    });
    const boom = (): number => {
      throw new Error("boom");
    };
    for (const [now, reason] of [
      [undefined, /no clock given/],
      [boom, /threw \(boom\)/],
      [() => Number.NaN, /NaN/],
      [() => Number.POSITIVE_INFINITY, /Infinity/],
    ] as const) {
      const r = await left(
        hierarchicalCompact(four, {
          target: { maxTokens: 10 },
          scoring: { ...opts, now } as unknown as typeof opts,
          summarize: () => "x",
          writer: w,
        })(),
      );
      expect(r).toMatchObject({
        _tag: "InvalidOptions",
        subject: "importance options",
        problems: [{ path: "now", message: expect.stringMatching(reason) }],
      });
    }
  });

  it("the options object is decoded at the boundary: functions and objects by shape, missing fields named, positional leftovers refused", async () => {
    const w = collect().writer;
    const left = async (options: unknown): Promise<unknown> => {
      const x = await hierarchicalCompact(four, options as HierarchicalCompactOptions)();
      if (E.isRight(x)) throw new Error("expected a refusal");
      return x.left;
    };
    const base = { target: { maxTokens: 10 }, scoring: opts, summarize: () => "x", writer: w };
    expect(await left({ ...base, summarize: "x" })).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ path: "summarize", message: expect.stringContaining("a function") }],
    });
    expect(await left({ ...base, writer: { write: () => undefined } })).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ path: "writer", message: expect.stringContaining("writeSummary") }],
    });
    expect(await left({ ...base, target: 10 })).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ path: "target" }],
    });
    expect(await left({ ...base, scoring: null })).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ path: "scoring" }],
    });
    const { writer: _omitted, ...noWriter } = base;
    expect(await left(noWriter)).toMatchObject({
      _tag: "InvalidOptions",
      subject: "hierarchical compact options",
      problems: [{ path: "writer" }],
    });
    expect(await left({ ...base, signal: "stop" })).toMatchObject({
      _tag: "InvalidOptions",
      problems: [{ path: "signal", message: expect.stringContaining("an AbortSignal") }],
    });
    // The former positional form (a target where the options go) is refused, never half-read.
    const positional = (await left({ maxTokens: 10 })) as { problems: readonly { message: string }[] };
    expect(positional).toMatchObject({ _tag: "InvalidOptions", subject: "hierarchical compact options" });
    expect(positional.problems.map((p) => p.message).join("; ")).toContain("maxTokens: unknown field");
    expect(await left({ ...base, sumarize: () => "x" })).toMatchObject({
      problems: [{ message: "sumarize: unknown field (did you mean summarize?)" }],
    });
  });

  it("end to end: evicted segments become searchable and expand to their originals (SQLite)", async () => {
    const index = right(await openSqliteIndex()());
    const segs = [
      seg("t1", 400, 7200_000, {
        kind: "tool_result",
        content: "Traceback (most recent call last):\n  File \"src/reader.py\", line 12\nKeyError: 'header'",
      }),
      seg("t2", 400, 7000_000, { kind: "file", content: "def parse_header(row):\n    return row.split(',')" }),
      seg("u", 50, 0, { content: "please fix it" }),
    ];
    const r = ok(
      await hierarchicalCompact(segs, {
        target: { maxTokens: 100 },
        scoring: opts,
        summarize: extractiveSummarizer(),
        writer: indexWriter(index, { namespace: "s1" }),
      })(),
    );
    expect(r.written.map((o) => o.segment.id)).toEqual(["t1", "t2"]);
    const hits = right(await index.search("KeyError reader.py", { namespace: "s1" })());
    expect(hits[0]?.id).toBe("t1");
    expect(hits[0]?.summary).toContain("[tool_result]");
    const back = right(await index.expand("t1", "s1")());
    expect(back?.content).toBe(segs[0]!.content);
    expect(back?.evictedAt).toBe(NOW);
    expect(back?.metadata).toEqual({ lastAccessed: NOW - 7200_000 });
    right(await index.close()());
  });

  it("evicted binary tool output and a truncated emoji are indexed, found and expanded exactly (SQLite)", async () => {
    const index = right(await openSqliteIndex()());
    const binary = "PNG\u0000\u0001\u0002 header dump \u0000\uFFFF tail";
    const truncated = `build log ok ${"🔥".slice(0, 1)} cut here \uDC00`;
    const segs = [
      seg("bin", 400, 7200_000, { kind: "tool_result", content: binary }),
      seg("emoji", 400, 7000_000, { kind: "tool_result", content: truncated }),
      seg("u", 50, 0, { content: "please fix it" }),
    ];
    const r = ok(
      await hierarchicalCompact(segs, {
        target: { maxTokens: 100 },
        scoring: opts,
        summarize: extractiveSummarizer(),
        writer: indexWriter(index, { namespace: "s1" }),
      })(),
    );
    expect(r.written.map((o) => o.segment.id)).toEqual(["bin", "emoji"]);
    expect(r.failed).toEqual([]);
    expect(right(await index.expand("bin", "s1")())?.content).toBe(binary);
    expect(right(await index.expand("emoji", "s1")())?.content).toBe(truncated);
    expect(right(await index.search("dump", { namespace: "s1" })()).map((h) => h.id)).toEqual(["bin"]);
    expect(right(await index.search("cut", { namespace: "s1" })()).map((h) => h.id)).toEqual(["emoji"]);
    right(await index.close()());
  });

  it("an index that fails is reported per segment (writes to a closed index)", async () => {
    const index = memoryIndex();
    right(await index.close()());
    const r = ok(
      await hierarchicalCompact(four, {
        target: { maxTokens: 1 },
        scoring: opts,
        summarize: () => "s",
        writer: indexWriter(index),
      })(),
    );
    expect(r.failed).toHaveLength(4);
    expect(r.failed[0]?.error).toMatchObject({
      _tag: "WriteFailed",
      error: { _tag: "IndexWriteFailed", error: { _tag: "IndexClosed" } },
    });
  });

  it("property: written + skipped + failed partition the evicted segments, whatever the callbacks do", async () => {
    const behaviour = fc.constantFrom("ok", "empty", "throw", "reject", "left", "writeFail");
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            cost: fc.integer({ min: 0, max: 500 }),
            age: fc.integer({ min: 0, max: 1e7 }),
            pinned: fc.boolean(),
            b: behaviour,
          }),
          { maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 8 }),
        async (specs, maxTokens, concurrency) => {
          const segs = specs.map((s, i) => ({ ...seg(`s${i}`, s.cost, s.age, { pinned: s.pinned }), b: s.b }));
          let writes = 0;
          const summarize: Summarizer<(typeof segs)[number]> = (s) => {
            if (s.b === "throw") throw new Error("t");
            if (s.b === "reject") return Promise.reject(new Error("r"));
            if (s.b === "left") return E.left("l");
            return s.b === "empty" ? "" : "sum";
          };
          const writer = summaryWriterFunc<(typeof segs)[number]>((s) => {
            if (s.b === "writeFail") throw new Error("w");
            writes++;
          });
          const r = ok(
            await hierarchicalCompact(segs, { target: { maxTokens }, scoring: opts, summarize, writer, concurrency })(),
          );
          expect(partitioned(r)).toBe(true);
          expect(r.written.length).toBe(writes);
          expect(r.evict.every((s) => s.pinned !== true)).toBe(true);
          expect(r.written.every((o) => o.segment.b === "ok")).toBe(true);
        },
      ),
      { numRuns: runs(200) },
    );
  });
});
