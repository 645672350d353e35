import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Segment } from "@cc/importance";
import type { CompletionRequest, Provider, ProviderError } from "@cc/messages";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { hierarchicalCompact } from "../src/compact.js";
import { entry, memoryIndex } from "@cc/search";
import { extractiveSummarizer, extractiveSummary, providerSummarizer } from "../src/summarize.js";
import { summaryWriterFunc } from "../src/writer.js";
import { right, runs } from "../../search/test/support/contract.js";
import { corpusPath } from "../../../.ci/data.js";

const dataDir = corpusPath("swe-agent-trajectories");

describe("extractiveSummary", () => {
  const trace = [
    "Traceback (most recent call last):",
    '  File "src/marshmallow/fields.py", line 1117, in _serialize',
    "    return self._format_num(value)",
    "ValueError: invalid literal for int() with base 10: 'x'",
  ].join("\n");

  it("keeps the first line, error lines, paths and identifiers", () => {
    const s = extractiveSummary(trace);
    expect(s.startsWith("Traceback (most recent call last):")).toBe(true);
    expect(s).toContain("ValueError: invalid literal");
    expect(s).toContain("src/marshmallow/fields.py");
    expect(s).toContain("_format_num");
  });

  it("is empty for empty or blank content and deterministic otherwise", () => {
    expect(extractiveSummary("")).toBe("");
    expect(extractiveSummary(" \n\t\n")).toBe("");
    expect(extractiveSummary(trace)).toBe(extractiveSummary(trace));
  });

  it("handles CJK, emoji, lone surrogates and 1 MB without a line break", () => {
    expect(extractiveSummary("数据库连接失败 🔥\n错误: timeout")).toContain("数据库连接失败");
    expect(extractiveSummary("bad \uD800 half")).toContain("bad");
    const huge = "x".repeat(1_000_000);
    expect(Array.from(extractiveSummary(huge, { maxChars: 100 })).length).toBeLessThanOrEqual(100);
  });

  it("property: never longer than maxChars, never throws, non-empty iff the content has a non-blank line", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          fc.array(fc.string(), { maxLength: 20 }).map((l) => l.join("\n")),
        ),
        fc.integer({ min: 40, max: 600 }),
        (content, maxChars) => {
          const s = extractiveSummary(content, { maxChars });
          expect(Array.from(s).length).toBeLessThanOrEqual(maxChars);
          expect(s === "").toBe(content.split(/\r?\n/).every((l) => l.trim() === ""));
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it("on real agent transcripts, a path or identifier kept in the summary finds the original again", async () => {
    const files = readdirSync(dataDir).filter((f) => f.endsWith(".traj"));
    expect(files.length).toBeGreaterThan(0);
    const index = memoryIndex();
    const outputs: { id: string; content: string }[] = [];
    for (const f of files) {
      const doc = JSON.parse(readFileSync(join(dataDir, f), "utf8")) as {
        history?: { role?: unknown; content?: unknown }[];
      };
      (doc.history ?? []).forEach((m, i) => {
        if ((m.role === "tool" || m.role === "user") && typeof m.content === "string" && m.content.length > 200)
          outputs.push({ id: `${f}#${i}`, content: m.content });
      });
    }
    expect(outputs.length).toBeGreaterThan(20);
    right(
      await index.write(
        outputs.map((o) => entry({ id: o.id, summary: extractiveSummary(o.content), content: o.content })),
      )(),
    );
    let probes = 0;
    let found = 0;
    for (const o of outputs) {
      const path = /paths: ([^,|]+)/.exec(extractiveSummary(o.content))?.[1]?.trim();
      if (path === undefined) continue;
      probes++;
      const hits = right(await index.search(path, { k: 50 })());
      if (hits.some((h) => h.id === o.id)) found++;
    }
    expect(probes).toBeGreaterThan(5);
    expect(found).toBe(probes);
  });
});

describe("providerSummarizer", () => {
  const provider = (
    reply: (r: CompletionRequest) => E.Either<ProviderError, string>,
  ): Provider & { seen: CompletionRequest[] } => {
    const seen: CompletionRequest[] = [];
    return {
      name: "scripted",
      seen,
      complete: (request) => async () => {
        seen.push(request);
        return E.map((text: string) => ({ text, usage: { inputTokens: 1, outputTokens: 1 }, model: request.model }))(
          reply(request),
        );
      },
      listModels: () => async () => E.right([]),
    };
  };
  const segs: Segment[] = [
    { id: "a", content: "x".repeat(50_000), tokenCost: 900, createdAt: 0, kind: "tool_result" },
    { id: "b", content: "short", tokenCost: 900, createdAt: 0 },
  ];

  it("asks the model with the prompt, bounded input and the pass's signal, and trims the answer", async () => {
    const p = provider(() => E.right("  a summary \n"));
    const summaries: string[] = [];
    const r = await hierarchicalCompact(segs, {
      target: { maxTokens: 1 },
      scoring: { now: () => 1 },
      summarize: providerSummarizer(p, { model: "m", maxInputChars: 1000 }),
      writer: summaryWriterFunc((_, s) => void summaries.push(s)),
    })();
    expect(E.isRight(r)).toBe(true);
    expect(summaries).toEqual(["a summary", "a summary"]);
    expect(p.seen[0]?.model).toBe("m");
    expect(p.seen[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(p.seen[0]?.messages[1]?.content.length).toBeLessThan(1200);
    expect(p.seen[0]?.messages[1]?.content).toContain("characters omitted");
  });

  it("reports provider failures per segment as SummarizeFailed, with the provider's tag", async () => {
    const p = provider((req) =>
      req.messages[1]?.content.includes("short") === true
        ? E.left({ _tag: "ProviderTimeout", timeoutMs: 30_000 })
        : E.right("ok"),
    );
    const r = await hierarchicalCompact(segs, {
      target: { maxTokens: 1 },
      scoring: { now: () => 1 },
      summarize: providerSummarizer(p, { model: "m" }),
      writer: summaryWriterFunc(() => undefined),
    })();
    if (E.isLeft(r)) throw new Error("unexpected Left");
    expect(r.right.written.map((o) => o.segment.id)).toEqual(["a"]);
    expect(r.right.failed.map((o) => o.error)).toMatchObject([
      { _tag: "SummarizeFailed", cause: { _tag: "ProviderTimeout" } },
    ]);
  });
});

describe("summarizer options", () => {
  it("are closed: a typo or a bad value fails each segment with a typed InvalidOptions, reported per segment", async () => {
    const seg: Segment = { id: "a", content: "Traceback: boom" };
    const signal = new AbortController().signal;
    const extractive = await extractiveSummarizer({ maxChar: 100 } as unknown as Parameters<
      typeof extractiveSummarizer
    >[0])(seg, { signal });
    expect(extractive).toMatchObject(
      E.left({
        _tag: "InvalidOptions",
        subject: "extractive summarizer options",
        problems: [{ message: "maxChar: unknown field (did you mean maxChars?)" }],
      }),
    );
    expect(await extractiveSummarizer({ maxChars: Number.NaN })(seg, { signal })).toMatchObject(
      E.left({ _tag: "InvalidOptions" }),
    );
    let calls = 0;
    const p: Provider = {
      name: "p",
      complete: () => async () => (
        calls++,
        E.right({ text: "s", model: "m", usage: { inputTokens: 1, outputTokens: 1 } })
      ),
      listModels: () => async () => E.right([]),
    };
    const bad = await providerSummarizer(p, { model: "m", maxTokens: 0 })(seg, { signal });
    expect(bad).toMatchObject(
      E.left({ _tag: "InvalidOptions", subject: "provider summarizer options", problems: [{ path: "maxTokens" }] }),
    );
    expect(calls).toBe(0);
    const r = await hierarchicalCompact([seg, { id: "b", content: "x" }], {
      target: { maxTokens: 1 },
      scoring: { now: () => 1 },
      summarize: providerSummarizer(p, { model: "m", promt: "x" } as unknown as { model: string }),
      writer: summaryWriterFunc(() => undefined),
    })();
    expect(E.isRight(r) && r.right.evict.length).toBeGreaterThan(0);
    expect(E.isRight(r) && r.right.failed.map((f) => f.error._tag)).toEqual(
      E.isRight(r) ? r.right.evict.map(() => "SummarizeFailed") : [],
    );
    expect(E.isRight(r) && r.right.written).toEqual([]);
    expect(E.isRight(r) && JSON.stringify(r.right.failed[0]!.error)).toContain("did you mean prompt?");
  });
});
