import { memoryIndex } from "@cc/hierarchical";
import { compact, rank, type Segment } from "@cc/importance";
import * as E from "fp-ts/lib/Either.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { aggregate, percent, percentWithRange } from "../retention/aggregate.js";
import { sessionClock } from "../retention/clock.js";
import { COST_WEIGHTS, HALF_LIVES_MIN, headline, randomSeeds, sensitivity, sensitivityLabel } from "../retention/configurations.js";
import { contextText, replay, storable, summaryOf, type Session } from "../retention/evaluate.js";
import { goStableSort, goStaleOrder } from "../retention/go-order.js";
import { evictInOrder, fifoPolicy, goOriginalPolicy, importancePolicy, lruPolicy, POLICIES, randomPolicy, seededRandom, shuffle, type Candidate, type Policy, type PolicyInput } from "../retention/policies.js";
import { argumentText, findReaccesses, messageTerms, ruleText, termsOf } from "../retention/reaccess.js";
import { generatedSessions } from "../retention/sessions.js";

const numRuns = process.env["CI"] ? 1000 : 200;
const HOUR = 3_600_000;
const NOW = 1_700_000_000_000;

describe("re-access rule", () => {
  it("extracts paths by base name, errors, identifiers and tool-call ids", () => {
    const terms = termsOf("Open /testbed/src/marshmallow/fields.py: AttributeError in td_field of TimeDelta, see call_abc123XYZ and __init__");
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
    const text = ruleText({ role: "tool", content: "ok\n(Open file: /testbed/reproduce.py)\n(Current directory: /testbed)\nbash-$" });
    expect(text).toBe("ok");
    const terms = messageTerms({ role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "find_file", arguments: '{"file_name":"a.py"}' }] });
    expect(terms.map((t) => t.key)).toEqual(["path:a.py", "tool-call:call_1"]);
  });

  it("links a later message to the first message where its term appeared, one re-access per pair, most specific term", () => {
    const msgs = [
      { role: "system", content: "You may edit config_file.py" },
      { role: "user", content: "Fix parse_config in app.py; it raises KeyError" },
      { role: "assistant", content: "Looking", toolCalls: [{ id: "call_A1", name: "open", arguments: '{"path":"app.py"}' }] },
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
    const msg = fc.record({ role: fc.constantFrom("user", "assistant", "tool", "system"), content: fc.array(word, { maxLength: 6 }).map((w) => w.join(" ")) });
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

  it("puts a pinned segment before others: [pin, 2h, 1h] → [2h, pin, 1h]", () => {
    const segs: Segment[] = [
      { id: "pin", content: "x", tokenCost: 100, createdAt: NOW, pinned: true },
      { id: "2h", content: "x", tokenCost: 100, createdAt: NOW - 2 * HOUR },
      { id: "1h", content: "x", tokenCost: 100, createdAt: NOW - HOUR },
    ];
    const cands: Candidate[] = segs.map((s, i) => ({ index: i, tokens: 100, createdAt: s.createdAt!, lastAccessed: s.createdAt!, accessCount: 0, pinned: s.pinned === true, content: "x" }));
    const input: PolicyInput = { candidates: cands, budget: 150, now: NOW, seed: 1, importance: {} };
    expect(goStaleOrder(["pin", "2h", "1h"], [Infinity, 0.4, 0.6])).toEqual(["2h", "pin", "1h"]);
    // Compact(MaxTokens=150) evicts fresh-ish and keeps the stale one where a correct order would not.
    const fresh: Candidate[] = [0, 4, 1].map((h, i) => ({ index: i, tokens: 100, createdAt: NOW - h * HOUR, lastAccessed: NOW - h * HOUR, accessCount: 0, pinned: false, content: "x" }));
    expect(goOriginalPolicy.evict({ ...input, candidates: fresh })).toEqual([1, 0]);
    expect(importancePolicy.evict({ ...input, candidates: fresh }).slice().sort()).toEqual([1, 2]);
    expect(goOriginalPolicy.evict(input)).not.toContain(0);
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

describe("policies", () => {
  const cand = (i: number, tokens: number, ageH: number, extra: Partial<Candidate> = {}): Candidate => ({
    index: i,
    tokens,
    createdAt: NOW - ageH * HOUR,
    lastAccessed: NOW - ageH * HOUR,
    accessCount: 0,
    pinned: false,
    content: "x",
    ...extra,
  });

  it("FIFO evicts oldest first, LRU the least recently referred, never a pinned one", () => {
    const cs = [cand(0, 100, 3, { pinned: true }), cand(1, 100, 2, { lastAccessed: NOW }), cand(2, 100, 1), cand(3, 100, 0.5)];
    const input = { candidates: cs, budget: 250, now: NOW, seed: 7, importance: {} };
    expect(fifoPolicy.evict(input)).toEqual([1, 2]);
    expect(lruPolicy.evict(input)).toEqual([2, 3]);
  });

  it("importance is @cc/importance compact on the same segments", () => {
    const cs = [cand(0, 100, 3), cand(1, 300, 2, { accessCount: 5 }), cand(2, 100, 1), cand(3, 50, 0)];
    const input = { candidates: cs, budget: 300, now: NOW, seed: 7, importance: {} };
    const segs: Segment[] = cs.map((c) => ({ id: String(c.index), content: c.content, tokenCost: c.tokens, createdAt: c.createdAt, lastAccessed: c.lastAccessed, accessCount: c.accessCount }));
    expect(importancePolicy.evict(input)).toEqual(compact(segs, { maxTokens: 300 }, { now: () => NOW }).evict.map((s) => Number(s.id)));
    expect(rank(segs, { now: () => NOW })[0]!.id).toBe("0");
  });

  it("every policy meets the budget when it can, evicts each index at most once, never a pinned one (property)", () => {
    const c = fc.record({ tokens: fc.integer({ min: 0, max: 500 }), ageH: fc.double({ min: 0, max: 10, noNaN: true }), pinned: fc.boolean(), accessCount: fc.nat(5) });
    fc.assert(
      // Budget ≥ 1: `compact` reads maxTokens ≤ 0 as "no budget" (a replay budget is always > 0).
      fc.property(fc.array(c, { maxLength: 30 }), fc.integer({ min: 1, max: 5000 }), fc.integer(), (raw, budget, seed) => {
        const cs = raw.map((r, i) => cand(i, r.tokens, r.ageH, { pinned: r.pinned, accessCount: r.accessCount }));
        const pinnedTokens = cs.filter((x) => x.pinned).reduce((s, x) => s + x.tokens, 0);
        for (const p of POLICIES) {
          const ev = p.evict({ candidates: cs, budget, now: NOW, seed, importance: {} });
          expect(new Set(ev).size).toBe(ev.length);
          for (const i of ev) expect(cs[i]!.pinned).toBe(false);
          const left = cs.filter((x) => !ev.includes(x.index)).reduce((s, x) => s + x.tokens, 0);
          if (pinnedTokens <= budget) expect(left).toBeLessThanOrEqual(budget);
        }
      }),
      { numRuns },
    );
  });

  it("random is reproducible for a seed and a permutation", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(shuffle([1, 2, 3, 4, 5], seededRandom(9)).sort()).toEqual([1, 2, 3, 4, 5]);
    const cs = [cand(0, 100, 3), cand(1, 100, 2), cand(2, 100, 1)];
    const input = { candidates: cs, budget: 150, now: NOW, seed: 3, importance: {} };
    expect(randomPolicy.evict(input)).toEqual(randomPolicy.evict(input));
    expect(evictInOrder(cs, [], 0)).toEqual([]);
  });
});

describe("replay", () => {
  const session: Session = {
    name: "s",
    source: "test",
    messages: [
      { role: "system", content: "rules" },
      { role: "user", content: "Fix parse_config in app.py " + "word ".repeat(200) },
      { role: "assistant", content: "step one " + "word ".repeat(200) },
      { role: "assistant", content: "step two " + "word ".repeat(200) },
      { role: "assistant", content: "Back to parse_config now" },
    ],
  };
  const options = { fraction: 0.5, count: (t: string) => Math.ceil(t.length / 4), t0: NOW, stepMs: 30_000, seed: 1, k: 5, importance: {} };

  it("FIFO evicts the issue, then recovers it from the index by the referring term", async () => {
    const index = memoryIndex();
    const r = await replay(session, fifoPolicy, index, options)();
    expect(E.isRight(r)).toBe(true);
    if (E.isRight(r)) {
      expect(r.right).toMatchObject({ evaluated: 1, kept: 0, recovered: 1, lost: [] });
      expect(r.right.compactions).toBeGreaterThan(0);
    }
    const hit = await index.expand("1", "s")();
    expect(E.isRight(hit) && hit.right?.summary).toMatch(/^user: Fix parse_config in app\.py/);
  });

  it("rejects NaN, negative, zero and huge budgets with the field named", async () => {
    for (const fraction of [Number.NaN, -0.1, 0, 1.5]) {
      const r = await replay(session, fifoPolicy, memoryIndex(), { ...options, fraction })();
      expect(E.isLeft(r) && r.left._tag === "InvalidReplay" && r.left.field).toBe("fraction");
    }
    const k = await replay(session, fifoPolicy, memoryIndex(), { ...options, k: 0 })();
    expect(E.isLeft(k) && k.left._tag === "InvalidReplay" && k.left.field).toBe("k");
  });

  it("reports an index failure as a value", async () => {
    const index = memoryIndex();
    await index.close()();
    const r = await replay(session, fifoPolicy, index, options)();
    expect(E.isLeft(r) && r.left._tag).toBe("IndexFailed");
  });

  it("summaries carry the first line and the terms; aggregation sums shares", () => {
    expect(summaryOf({ role: "tool", content: "\nTraceback\nKeyError in my_func" })).toBe("tool: Traceback | KeyError my_func");
    expect(contextText({ role: "assistant", content: "hi", toolCalls: [{ id: "c", name: "ls", arguments: "{}" }] })).toBe("hi\nls({})");
    const o = { session: "a", source: "x", policy: "fifo", seed: 1, fraction: 0.5, clock: "synthetic" as const, totalTokens: 10, evaluated: 4, kept: 1, recovered: 2, compactions: 1, evictedMessages: 2, lost: [] };
    const rows = aggregate([o, { ...o, session: "b", evaluated: 0, kept: 0, recovered: 0 }]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: "all", sessions: 2, evaluated: 4, keptShare: 0.25, withIndexShare: 0.75 });
    expect(percent(Number.NaN)).toBe("n/a");
    expect(percent(0.9512)).toBe("95.1%");
  });
});

describe("replay clock", () => {
  it("uses recorded timestamps only when every message has a finite, non-negative, non-decreasing one", () => {
    expect(sessionClock([{ timestamp: 5 }, { timestamp: 5 }, { timestamp: 9 }], 0, 1)).toEqual({ kind: "recorded", times: [5, 5, 9] });
    expect(sessionClock([{}, {}], 1000, 30_000)).toEqual({ kind: "synthetic", times: [1000, 31_000] });
    for (const bad of [[{ timestamp: 5 }, {}], [{ timestamp: 9 }, { timestamp: 5 }], [{ timestamp: Number.NaN }], [{ timestamp: -1 }], [{ timestamp: Infinity }]]) {
      expect(sessionClock(bad, 0, 10).kind).toBe("synthetic");
    }
    expect(sessionClock([], 0, 10)).toEqual({ kind: "synthetic", times: [] });
  });
});

/** A policy that records what it was given and delegates to `inner`. */
function recording(inner: Policy): { policy: Policy; calls: PolicyInput[] } {
  const calls: PolicyInput[] = [];
  return { calls, policy: { name: inner.name, evict: (input) => (calls.push(input), inner.evict(input)) } };
}

describe("replay fairness (the protocol every policy gets)", () => {
  const word = fc.constantFrom("app.py", "td_field", "KeyError", "TimeDelta", "hello", "x.rs", "lorem ipsum dolor", "parse_config");
  const msg = fc.record({
    role: fc.constantFrom("user", "assistant", "tool", "system"),
    content: fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(" ")),
  });
  const count = (t: string): number => Math.ceil(t.length / 3);
  const base = { count, t0: NOW, stepMs: 30_000, seed: 5, k: 5, importance: {} };

  it("at every compaction: now = the arriving message's time, stats = re-accesses made up to it, tokens = the shared count (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(msg, { minLength: 2, maxLength: 14 }), fc.constantFrom(0.3, 0.5, 0.7), async (msgs, fraction) => {
        const session: Session = { name: "p", source: "test", messages: msgs };
        const rs = findReaccesses(msgs);
        for (const inner of POLICIES) {
          const rec = recording(inner);
          const r = await replay(session, rec.policy, memoryIndex(), { ...base, fraction })();
          expect(E.isRight(r)).toBe(true);
          for (const call of rec.calls) {
            const j = (call.now - NOW) / 30_000;
            expect(Number.isInteger(j)).toBe(true);
            expect(Math.max(...call.candidates.map((c) => c.index))).toBe(j);
            expect(call.budget).toBe(fraction * msgs.reduce((s, m) => s + count(contextText(m)), 0));
            for (const c of call.candidates) {
              const refs = rs.filter((x) => x.origin === c.index && x.at <= j);
              expect(c.accessCount).toBe(refs.length);
              expect(c.lastAccessed).toBe(NOW + Math.max(c.index, ...refs.map((x) => x.at)) * 30_000);
              expect(c.createdAt).toBe(NOW + c.index * 30_000);
              expect(c.tokens).toBe(count(contextText(msgs[c.index]!)));
              expect(c.pinned).toBe(msgs[c.index]!.role === "system");
            }
          }
        }
      }),
      { numRuns },
    );
  });

  it("every policy meets its first compaction with the same input and is scored on the same re-accesses", async () => {
    const gen = generatedSessions([{ seed: 3, turns: 8, outputLines: 30 }])[0]!;
    const firsts: unknown[] = [];
    const evaluated: number[] = [];
    for (const inner of POLICIES) {
      const rec = recording(inner);
      const r = await replay(gen, rec.policy, memoryIndex(), { ...base, fraction: 0.5 })();
      if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
      const first = rec.calls[0]!;
      firsts.push({ candidates: first.candidates, budget: first.budget, now: first.now });
      evaluated.push(r.right.evaluated);
    }
    for (const f of firsts) expect(f).toEqual(firsts[0]);
    expect(new Set(evaluated).size).toBe(1);
    expect(evaluated[0]).toBeGreaterThan(0);
  });

  it("replays on recorded timestamps when the session has them", async () => {
    const stamped: Session = {
      name: "t",
      source: "test",
      messages: [
        { role: "user", content: "Fix parse_config " + "word ".repeat(100), timestamp: NOW },
        { role: "assistant", content: "reading " + "word ".repeat(100), timestamp: NOW + HOUR },
        { role: "assistant", content: "parse_config again " + "word ".repeat(100), timestamp: NOW + 2 * HOUR },
      ],
    };
    const rec = recording(importancePolicy);
    const r = await replay(stamped, rec.policy, memoryIndex(), { ...base, fraction: 0.7 })();
    expect(E.isRight(r) && r.right.clock).toBe("recorded");
    expect(rec.calls.map((c) => c.now)).toEqual([NOW + 2 * HOUR]);
    expect(rec.calls[0]!.candidates.map((c) => [c.createdAt, c.lastAccessed, c.accessCount])).toEqual([
      [NOW, NOW + 2 * HOUR, 1],
      [NOW + HOUR, NOW + HOUR, 0],
      [NOW + 2 * HOUR, NOW + 2 * HOUR, 0],
    ]);
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

  it("the headline uses the default options; the grid covers costWeight × half-life once each", () => {
    const h = headline(randomSeeds(4));
    expect(h.map((c) => c.label)).toEqual(["importance", "fifo", "lru", "random", "go-original"]);
    expect(h.find((c) => c.label === "importance")?.importance).toEqual({});
    expect(h.find((c) => c.label === "random")?.seeds).toHaveLength(4);
    expect(h.filter((c) => c.label !== "random").every((c) => c.seeds.length === 1)).toBe(true);
    const grid = sensitivity();
    expect(grid).toHaveLength(COST_WEIGHTS.length * HALF_LIVES_MIN.length);
    expect(new Set(grid.map((c) => c.label)).size).toBe(grid.length);
    expect(grid.find((c) => c.label === sensitivityLabel(0, 120))?.importance).toEqual({ costWeight: 0, recencyHalfLifeMs: 120 * 60_000 });
    expect(randomSeeds(Number.NaN)).toHaveLength(1);
  });

  it("pools seeds and reports their spread", () => {
    const o = { session: "a", source: "x", policy: "random", seed: 1, fraction: 0.5, clock: "synthetic" as const, totalTokens: 10, evaluated: 10, kept: 2, recovered: 8, compactions: 1, evictedMessages: 3, lost: [] };
    const rows = aggregate([o, { ...o, seed: 2, kept: 6, recovered: 4, evictedMessages: 5 }]);
    expect(rows[0]).toMatchObject({ seeds: 2, sessions: 1, evaluated: 10, kept: 4, keptShare: 0.4, keptRange: [0.2, 0.6], withIndexShare: 1, withIndexRange: [1, 1], evictedMessages: 4 });
    expect(percentWithRange(0.4, [0.2, 0.6])).toBe("40.0% (20.0–60.0)");
    expect(percentWithRange(1, [1, 1])).toBe("100.0%");
    expect(percentWithRange(Number.NaN, [Number.NaN, Number.NaN])).toBe("n/a");
  });
});
