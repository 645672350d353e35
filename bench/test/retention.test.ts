import { score, type Segment } from "@cc/importance";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sessionClock } from "../retention/clock.js";
import { contextText, storable, summaryOf } from "../retention/evaluate.js";
import { goStableSort, goStaleOrder } from "../retention/go-order.js";
import { evictInOrder, seededRandom, shuffle, type Candidate } from "../retention/policies.js";
import { argumentText, findReaccesses, messageTerms, ruleText, termsOf } from "../retention/reaccess.js";
import { generatedSessions } from "../retention/sessions.js";
import { runsFor } from "../../.ci/support/runs.js";

const numRuns = runsFor(200, 1000);
const HOUR = 3_600_000;
const NOW = 1_700_000_000_000;

describe("re-access rule", () => {
  it("extracts paths by base name, errors, identifiers and tool-call ids", () => {
    const terms = termsOf(
      "Open /testbed/src/marshmallow/fields.py: AttributeError in td_field of TimeDelta, see call_abc123XYZ and __init__",
    );
    expect(terms.map((t) => t.key)).toEqual([
      "path:fields.py",
      "error:AttributeError",
      "identifier:td_field",
      "identifier:TimeDelta",
      "tool-call:call_abc123XYZ",
    ]);
  });

  it("ignores plain words, short names, dunders and directories without an extension", () => {
    expect(termsOf("We should look at the repository in /testbed now. __init__ is fine; a_b too short")).toEqual([]);
  });

  it("reads tool-call argument values, not tool names or keys, and strips harness footers", () => {
    expect(argumentText('{"file_name":"missing_colon.py","opts":["x_y_z"]}')).toBe("missing_colon.py\nx_y_z");
    expect(argumentText("not { json")).toBe("not { json");
    const text = ruleText({
      role: "tool",
      content: "ok\n(Open file: /testbed/reproduce.py)\n(Current directory: /testbed)\nbash-$",
    });
    expect(text).toBe("ok");
    const terms = messageTerms({
      role: "assistant",
      content: "",
      toolCalls: [{ id: "call_1", name: "find_file", arguments: '{"file_name":"a.py"}' }],
    });
    expect(terms.map((t) => t.key)).toEqual(["path:a.py", "tool-call:call_1"]);
  });

  it("links a later message to the first message where its term appeared, one re-access per pair, most specific term", () => {
    const msgs = [
      { role: "system", content: "You may edit config_file.py" },
      { role: "user", content: "Fix parse_config in app.py; it raises KeyError" },
      {
        role: "assistant",
        content: "Looking",
        toolCalls: [{ id: "call_A1", name: "open", arguments: '{"path":"app.py"}' }],
      },
      { role: "tool", content: "def parse_config(): ...", toolCallId: "call_A1" },
      { role: "assistant", content: "parse_config in app.py raises KeyError; config_file.py untouched" },
    ];
    const r = findReaccesses(msgs);
    expect(r.map((x) => [x.at, x.origin, x.term.text])).toEqual([
      [2, 1, "app.py"],
      [3, 1, "parse_config"],
      [3, 2, "call_A1"],
      [4, 1, "KeyError"],
    ]);
  });

  it("never reports a re-access forwards or to itself (property)", () => {
    const word = fc.constantFrom("app.py", "td_field", "KeyError", "call_abcdef1", "TimeDelta", "hello", "x.rs");
    const msg = fc.record({
      role: fc.constantFrom("user", "assistant", "tool", "system"),
      content: fc.array(word, { maxLength: 6 }).map((w) => w.join(" ")),
    });
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 15 }), (msgs) => {
        const rs = findReaccesses(msgs);
        const pairs = new Set<string>();
        for (const r of rs) {
          expect(r.origin).toBeLessThan(r.at);
          expect(msgs[r.origin]!.role).not.toBe("system");
          expect(termsOf(msgs[r.at]!.content).some((t) => t.key === r.term.key)).toBe(true);
          expect(termsOf(msgs[r.origin]!.content).some((t) => t.key === r.term.key)).toBe(true);
          const key = `${r.at}:${r.origin}`;
          expect(pairs.has(key)).toBe(false);
          pairs.add(key);
        }
      }),
      { numRuns },
    );
  });

  it("handles odd Unicode and empty input without losing terms", () => {
    expect(findReaccesses([])).toEqual([]);
    const lone = "\uD800 broken";
    expect(termsOf(`${lone} 文件 données_utf8.py 🚀 my_var`).map((t) => t.text)).toEqual(["données_utf8.py", "my_var"]);
    expect(storable(`a${lone}\u0000b`)).toBe("a\uFFFD brokenb");
  });
});

describe("Go original's order (GO-FINDINGS item 1)", () => {
  it("reproduces the minimal example: ages 0, 4 h, 1 h rank as [4h, fresh, 1h]", () => {
    expect(goStaleOrder(["fresh", "4h", "1h"], [1.25, 0.254, 0.5])).toEqual(["4h", "fresh", "1h"]);
  });

  it("puts a pinned segment before others: [pin, 2h, 1h] → [2h, pin, 1h]; its greedy compact keeps the stale segment a correct order evicts", () => {
    expect(goStaleOrder(["pin", "2h", "1h"], [Infinity, 0.4, 0.6])).toEqual(["2h", "pin", "1h"]);
    // Compact(MaxTokens=150) in the stale order evicts the fresh one and keeps the 4-hour-old one;
    // a correct ascending order evicts the two oldest.
    const fresh: Candidate[] = [0, 4, 1].map((h, i) => ({
      index: i,
      tokens: 100,
      createdAt: NOW - h * HOUR,
      lastAccessed: NOW - h * HOUR,
      accessCount: 0,
      pinned: false,
      content: "x",
    }));
    const segs: Segment[] = fresh.map((c) => ({
      id: String(c.index),
      content: "x",
      tokenCost: c.tokens,
      createdAt: c.createdAt,
      lastAccessed: c.lastAccessed,
      accessCount: 0,
    }));
    const scores = segs.map((x) => score(x, { now: () => NOW }));
    expect(evictInOrder(fresh, goStaleOrder(fresh, scores), 150)).toEqual([1, 0]);
    const correct = [...fresh].sort((a, b) => scores[a.index]! - scores[b.index]! || a.index - b.index);
    expect(evictInOrder(fresh, correct, 150).sort()).toEqual([1, 2]);
  });

  it("the transcription is a correct stable sort when the comparator is not stale (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 120 }), (keys) => {
        const items = keys.map((k, i) => ({ k, i }));
        const sorted = goStableSort(items, (x) => x.k);
        expect(sorted).toEqual([...items].sort((a, b) => a.k - b.k || a.i - b.i));
      }),
      { numRuns },
    );
  });

  it("the stale order is a permutation and differs from a correct sort on most inputs of 10", () => {
    let differs = 0;
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 2, noNaN: true }), { minLength: 10, maxLength: 10 }), (scores) => {
        const idx = scores.map((_, i) => i);
        const stale = goStaleOrder(idx, scores);
        expect([...stale].sort((a, b) => a - b)).toEqual(idx);
        const correct = [...idx].sort((a, b) => scores[a]! - scores[b]! || a - b);
        if (stale.some((v, i) => v !== correct[i])) differs++;
      }),
      { numRuns, seed: 42 },
    );
    expect(differs / numRuns).toBeGreaterThan(0.9);
  });
});

describe("eviction helpers", () => {
  const cand = (i: number, tokens: number, pinned = false): Candidate => ({
    index: i,
    tokens,
    createdAt: NOW,
    lastAccessed: NOW,
    accessCount: 0,
    pinned,
    content: "x",
  });

  it("evicts in the given order until the budget holds, never a pinned candidate", () => {
    const cs = [cand(0, 100, true), cand(1, 100), cand(2, 100), cand(3, 100)];
    expect(evictInOrder(cs, cs, 250)).toEqual([1, 2]);
    expect(evictInOrder(cs, [...cs].reverse(), 250)).toEqual([3, 2]);
    expect(evictInOrder(cs, cs, 0)).toEqual([1, 2, 3]);
    expect(evictInOrder(cs, [], 0)).toEqual([]);
  });

  it("the seeded PRNG is reproducible and the shuffle a permutation", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(shuffle([1, 2, 3, 4, 5], seededRandom(9)).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("index entries", () => {
  it("summaries carry the first line and the terms; the context text joins content and calls", () => {
    expect(summaryOf({ role: "tool", content: "\nTraceback\nKeyError in my_func" })).toBe(
      "tool: Traceback | KeyError my_func",
    );
    expect(
      contextText({ role: "assistant", content: "hi", toolCalls: [{ id: "c", name: "ls", arguments: "{}" }] }),
    ).toBe("hi\nls({})");
    expect(storable("a\u0000b\uD800")).toBe("ab\uFFFD");
  });
});

describe("replay clock", () => {
  it("uses recorded timestamps only when every message has a finite, non-negative, non-decreasing one", () => {
    expect(sessionClock([{ timestamp: 5 }, { timestamp: 5 }, { timestamp: 9 }], 0, 1)).toEqual({
      kind: "recorded",
      times: [5, 5, 9],
    });
    expect(sessionClock([{}, {}], 1000, 30_000)).toEqual({ kind: "synthetic", times: [1000, 31_000] });
    for (const bad of [
      [{ timestamp: 5 }, {}],
      [{ timestamp: 9 }, { timestamp: 5 }],
      [{ timestamp: Number.NaN }],
      [{ timestamp: -1 }],
      [{ timestamp: Infinity }],
    ]) {
      expect(sessionClock(bad, 0, 10).kind).toBe("synthetic");
    }
    expect(sessionClock([], 0, 10)).toEqual({ kind: "synthetic", times: [] });
  });
});

describe("corpora and configurations", () => {
  it("generated sessions are deterministic, named by their spec, and refer back to earlier messages", () => {
    const spec = { seed: 2, turns: 6, outputLines: 20 };
    const [a] = generatedSessions([spec]);
    const [b] = generatedSessions([spec]);
    expect(a).toEqual(b);
    expect(a?.name).toBe("gen-s2-t6-l20");
    expect(a?.source).toBe("generated");
    expect(a?.messages[0]?.role).toBe("system");
    expect(findReaccesses(a?.messages ?? []).length).toBeGreaterThan(5);
    expect(generatedSessions([{ ...spec, seed: 3 }])[0]?.messages).not.toEqual(a?.messages);
  });
});
