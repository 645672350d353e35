import { afterAll, describe, expect, it } from "vitest";
import { countAsync, estimateCounter, tiktokenCounter } from "@cc/tokens";
import { codeText, pathological } from "./corpus/generate.js";

describe("countAsync", () => {
  const counter = tiktokenCounter();
  afterAll(() => counter.dispose());

  it("equals the synchronous exact count on large ordinary text", async () => {
    const text = codeText(5, 200_000);
    expect(await countAsync(counter, text)).toBe(counter.count(text));
  });

  it("yields to the event loop between slices of a large input", async () => {
    const text = pathological(3, 200_000).get("random letters, no whitespace")!;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const slices: number[] = [];
    const recording = { ...counter, count: (t: string) => (slices.push(t.length), counter.count(t)) };
    await countAsync(recording, text, { sliceChars: 4096 });
    clearInterval(timer);
    expect(slices.length).toBeGreaterThanOrEqual(200_000 / 4096);
    expect(Math.max(...slices)).toBeLessThanOrEqual(4096);
    expect(ticks).toBeGreaterThan(0);
  });

  it("counts small text at once and rejects with the abort reason", async () => {
    expect(await countAsync(estimateCounter(), "hello")).toBe(estimateCounter().count("hello"));
    const ac = new AbortController();
    const pending = countAsync(counter, "word ".repeat(100_000), { signal: ac.signal });
    ac.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });

  it("reports a disposed counter as a rejected promise, not a crash", async () => {
    const c = tiktokenCounter();
    c.dispose();
    await expect(countAsync(c, "x")).rejects.toThrow(/dispose/);
  });

  it.each([Number.NaN, -1, 0, 1.5, Number.POSITIVE_INFINITY])(
    "rejects sliceChars %s with a RangeError naming it",
    async (sliceChars) => {
      await expect(countAsync(counter, "hello", { sliceChars })).rejects.toThrow(/sliceChars/);
    },
  );

  it("raises a tiny slice to the bounded-piece minimum and stays exact", async () => {
    const text = "word ".repeat(2000);
    expect(await countAsync(counter, text, { sliceChars: 1 })).toBe(counter.count(text));
  });
});
