import type { Message } from "@cc/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeMemoOptions, memoEntryBytes, memoKey } from "@cc/test-support/tokens";
import { estimateCounter, memoCounter, tiktokenCounter } from "@cc/tokens";
import { anyText } from "./corpus/arbitraries.js";
import { numRuns } from "./corpus/runs.js";

describe("memoCounter", () => {
  it("respects entry and byte bounds, counts like the wrapped counter, and accounts every call", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.array(fc.oneof(anyText, fc.constantFrom("same", "same", "again")), { maxLength: 60 }),
        (maxEntries, maxBytes, texts) => {
          const inner = estimateCounter();
          const memo = memoCounter(inner, { maxEntries, maxBytes });
          for (const t of texts) {
            expect(memo.count(t)).toBe(inner.count(t));
            const s = memo.stats();
            expect(s.entries).toBeLessThanOrEqual(maxEntries);
            expect(s.bytes).toBeLessThanOrEqual(maxBytes);
          }
          const s = memo.stats();
          expect(s.hits + s.misses).toBe(texts.length);
        },
      ),
      { numRuns },
    );
  });

  it("hits on repeated text, including long text keyed by hash", () => {
    const memo = memoCounter(tiktokenCounter());
    const long = "tool output line\n".repeat(1000);
    expect(memo.count("hello world")).toBe(2);
    expect(memo.count("hello world")).toBe(2);
    const n = memo.count(long);
    expect(memo.count(long)).toBe(n);
    expect(memo.stats()).toEqual({
      hits: 2,
      misses: 2,
      entries: 2,
      bytes: memoEntryBytes(memoKey("hello world")) + memoEntryBytes(memoKey(long)),
    });
    memo.dispose();
    expect(() => memo.count("after")).toThrow(/dispose/);
  });

  it("memoises the fields counted by countMessages", () => {
    const memo = memoCounter(estimateCounter());
    const msgs: Message[] = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "You are terse." },
    ];
    const first = memo.countMessages(msgs);
    expect(memo.countMessages(msgs)).toBe(first);
    expect(memo.stats().hits).toBeGreaterThan(memo.stats().misses);
  });

  it("keys short texts by themselves and long texts by length and SHA-256, so they never collide", () => {
    expect(memoKey("abc")).toBe("=abc");
    const long = "x".repeat(65);
    expect(memoKey(long)).toMatch(/^#65:[A-Za-z0-9+/=]{44}$/);
    expect(memoKey(`#65:${"a".repeat(20)}`)).not.toBe(memoKey(long));
    expect(memoKey("\ud800")).not.toBe(memoKey("\udc00"));
  });

  it.each([
    [{ maxEntries: Number.NaN }, "maxEntries"],
    [{ maxEntries: -1 }, "maxEntries"],
    [{ maxEntries: 0 }, "maxEntries"],
    [{ maxBytes: 1.5 }, "maxBytes"],
    [{ maxBytes: Number.POSITIVE_INFINITY }, "maxBytes"],
    [{ maxBytes: 2 ** 60 }, "maxBytes"],
  ])("rejects %o naming %s", (options, field) => {
    const decoded = decodeMemoOptions(options);
    expect(decoded._tag).toBe("Left");
    if (decoded._tag === "Left") expect(decoded.left.message).toContain(field);
    expect(() => memoCounter(estimateCounter(), options)).toThrow(new RegExp(field));
  });

  it("rejects malformed configuration values (strings, null) as values, not throws", () => {
    expect(decodeMemoOptions({ maxEntries: "10" })._tag).toBe("Left");
    expect(decodeMemoOptions(null)._tag).toBe("Left");
    expect(decodeMemoOptions({ maxEntries: 10, maxBytes: 1024 })).toEqual({
      _tag: "Right",
      right: { maxEntries: 10, maxBytes: 1024 },
    });
  });
});
