import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { AGENT_PRESET } from "@cc/importance";
import { messageUnits, type Message } from "@cc/messages";
import { estimateCounter } from "@cc/tokens";
import { buildSegments, evictUnits } from "@cc/hierarchical";
import { memoryIndex } from "@cc/search";
import { agentReuse, EVICTION_SCORING, MAX_TRACKED_TERMS, termKeys } from "@cc/test-support/hierarchical";
import { runsFor } from "../../../../.ci/support/runs.js";

const numRuns = runsFor(100, 500);
const counter = estimateCounter();
const NOW = 1_700_000_000_000;

const sys: Message = { role: "system", content: "You are a coding agent." };
const user = (content: string): Message => ({ role: "user", content });
const say = (content: string, extra?: Message["extra"]): Message => ({
  role: "assistant",
  content,
  ...(extra === undefined ? {} : { extra }),
});
const call = (id: string, args: string, content = ""): Message => ({
  role: "assistant",
  content,
  toolCalls: [{ id, name: "bash", arguments: JSON.stringify({ cmd: args }) }],
});
const result = (id: string, body: string): Message => ({ role: "tool", content: body, toolCallId: id, name: "bash" });
const settings = { targetTokens: 1300, preserveLast: 0, namespace: "ns", noteTokens: 120, concurrency: 2 };
const run = () => ({ index: memoryIndex(), counter, now: NOW });

describe("reuse from the agent's own references", () => {
  it("a tool output or a user message mentioning an old path does not make its unit used; the agent's text, reasoning and arguments do", () => {
    const base = [
      sys,
      user("Fix the crash in src/pkg/old_mod.py"),
      call("call_aaaaaaaa1", "ls"),
      result("call_aaaaaaaa1", "src/pkg/old_mod.py\nsrc/pkg/other.py"),
      user("still src/pkg/old_mod.py?"),
    ];
    const before = buildSegments(base, { counter, now: NOW, preserveLast: 0 });
    expect(before.map((s) => s.accessCount)).toEqual([0, 0, 0, 0]);
    expect(before.map((s) => s.turn)).toEqual([0, 1, 2, 3]);
    expect(before[1]!.lastAccessedTurn).toBeUndefined();
    // The agent names the file in its reasoning (unit 4) and in a tool call's arguments (unit 5).
    const used = [
      ...base,
      say("Looking.", { reasoning_content: "the bug is in old_mod.py" }),
      call("call_bbbbbbbb2", "sed -n 1,40p /testbed/src/pkg/old_mod.py"),
      result("call_bbbbbbbb2", "def load(): ..."),
    ];
    const after = buildSegments(used, { counter, now: NOW, preserveLast: 0 });
    expect(after[1]).toMatchObject({ accessCount: 2, lastAccessedTurn: 5, lastAccessed: after[5]!.createdAt });
    // other.py first appeared in the tool output of unit 2, and the agent never named it.
    expect(after[2]!.accessCount).toBe(0);
  });

  it("a tool-call id is never a term: neither a result naming its own call nor the agent quoting an id makes a unit used", () => {
    const m = [
      user("start"),
      call("call_x1y2z3w4", "make"),
      result("call_x1y2z3w4", "done call_x1y2z3w4"),
      say("call_x1y2z3w4 finished; toolu_abcdef123 too"),
    ];
    expect(agentReuse(messageUnits(m))).toEqual([{ count: 0 }, { count: 0 }, { count: 0 }]);
    expect(termKeys("see call_x1y2z3w4 and toolu_abcdef123 in src/a/b_c.py", new Set())).toEqual(["b_c.py"]);
  });

  it("keys paths by base name, keeps identifiers and error names, one use per (message, unit)", () => {
    expect(termKeys("open /testbed/src/app.py: KeyError in load_config", new Set())).toEqual([
      "app.py",
      "KeyError",
      "load_config",
    ]);
    const m = [
      user("app.py raises KeyError in load_config"),
      say("app.py and load_config and KeyError"),
      say("KeyError again"),
    ];
    expect(agentReuse(messageUnits(m))).toEqual([{ count: 2, lastTurn: 2 }, { count: 0 }, { count: 0 }]);
  });

  it("stays bounded: a huge tool output is sampled, and at most MAX_TRACKED_TERMS terms are tracked", () => {
    const huge = Array.from({ length: 50_000 }, (_, i) => `mod_${i}.py`).join(" ");
    const m = [
      user("go"),
      call("c1", "ls"),
      result("c1", huge),
      say("edit mod_0.py and mod_49999.py and mod_25000.py"),
    ];
    const r = agentReuse(messageUnits(m));
    // Head and tail are scanned (mod_0, mod_49999); the middle of the output is not.
    expect(r[1]).toEqual({ count: 1, lastTurn: 2 });
    expect(MAX_TRACKED_TERMS).toBeGreaterThan(0);
  });
});

/** Older small tool steps, then a large tool output that has just arrived (the newest unit). */
const arrival = (): Message[] => [
  sys,
  user("Fix the failing test in src/app.py"),
  call("c1", "cat src/util.py"),
  result("c1", "def util(): pass\n".repeat(20)),
  call("c2", "cat src/cfg.py"),
  result("c2", "CONFIG = 1\n".repeat(20)),
  call("c3", "pytest -x"),
  result("c3", "FAILED test_app.py::test_total - AssertionError\n".repeat(60)),
];

describe("evictUnits scores with the benchmark's settings", () => {
  it("does not evict the newest tool output on arrival while an older unit can go", async () => {
    const m = arrival();
    const r = await evictUnits(m, settings, run())();
    if (E.isLeft(r)) throw new Error(r.left.message);
    const newest = r.right.segments[r.right.segments.length - 1]!;
    expect(newest.pinned).toBe(false);
    expect(r.right.evicted.map((e) => e.id)).not.toContain(newest.id);
    expect(r.right.evicted.length).toBeGreaterThan(0);
    expect(r.right.kept.slice(-2)).toEqual(m.slice(-2));
    expect(r.right.budgetMet).toBe(true);
    // The contract defaults of @cc/importance (the old behaviour) drop it first.
    const old = await evictUnits(m, { ...settings, scoring: { keepNewest: 0, age: "clock" } }, run())();
    if (E.isLeft(old)) throw new Error(old.left.message);
    expect(old.right.evicted.map((e) => e.id)).toContain(newest.id);
  });

  it("defaults to AGENT_PRESET; scoring overrides are decoded by a closed codec", async () => {
    expect(EVICTION_SCORING).toEqual(AGENT_PRESET);
    const typo = await evictUnits(arrival(), { ...settings, scoring: { keepNewst: 2 } as never }, run())();
    expect(typo).toMatchObject({ left: { _tag: "InvalidOptions", subject: "eviction options" } });
    if (E.isLeft(typo)) expect(typo.left.message).toMatch(/keepNewest/);
    for (const bad of [
      { keepNewest: Number.NaN },
      { recencyHalfLifeTurns: 0 },
      { age: "wall" },
      { now: () => 1 },
      { reuseWeight: Number.POSITIVE_INFINITY },
      null,
    ]) {
      const r = await evictUnits(arrival(), { ...settings, scoring: bad as never }, run())();
      expect(r._tag, JSON.stringify(bad)).toBe("Left");
    }
    // An undefined field leaves the default in place.
    const same = await evictUnits(arrival(), { ...settings, scoring: { keepNewest: undefined } }, run())();
    const plain = await evictUnits(arrival(), settings, run())();
    expect(E.map((x: { evicted: readonly { id: string }[] }) => x.evicted.map((e) => e.id))(same)).toEqual(
      E.map((x: { evicted: readonly { id: string }[] }) => x.evicted.map((e) => e.id))(plain),
    );
  });
});

/** A random agent conversation: a task, then steps of calls with outputs of random sizes and agent remarks. */
const conversation = fc
  .array(
    fc.record({
      kind: fc.constantFrom("call", "say", "user"),
      lines: fc.integer({ min: 0, max: 40 }),
      mention: fc.integer({ min: 0, max: 6 }),
    }),
    { minLength: 1, maxLength: 16 },
  )
  .map((steps) => {
    const out: Message[] = [sys, user("Fix the bug in src/mod_0.py")];
    steps.forEach((s, i) => {
      if (s.kind === "user") out.push(user(`what about mod_${s.mention}.py?`));
      else if (s.kind === "say") out.push(say(`I will edit mod_${s.mention}.py`));
      else
        out.push(
          call(`c${i}`, `cat src/mod_${s.mention}.py`),
          result(`c${i}`, `line ${i} of mod_${i}.py\n`.repeat(s.lines)),
        );
    });
    return out;
  });

describe("evictUnits keeps the newest unit while older ones can go (property)", () => {
  it("the newest unpinned unit leaves only when evicting every older unpinned unit would not meet the budget", async () => {
    await fc.assert(
      fc.asyncProperty(
        conversation,
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 4 }),
        async (m, targetTokens, preserveLast) => {
          const r = await evictUnits(m, { ...settings, targetTokens, preserveLast }, run())();
          if (E.isLeft(r)) throw new Error(r.left.message);
          const gone = new Set(r.right.evicted.map((e) => e.id));
          const open = r.right.segments.filter((s) => s.pinned !== true);
          const newest = open[open.length - 1];
          if (newest === undefined || !gone.has(newest.id)) return;
          // Everything older and unpinned gone, only the pinned units and the newest left: still over.
          const floor = r.right.segments
            .filter((s) => s.pinned === true || s === newest)
            .reduce((n, s) => n + (s.tokenCost ?? 0), 0);
          expect(floor).toBeGreaterThan(targetTokens - r.right.reservedTokens);
        },
      ),
      { numRuns },
    );
  });

  it("when the newest unit must leave, an older unit evicted before it comes back if it fits (the task is not lost for nothing)", async () => {
    const m = [
      sys,
      user("Fix src/app.py"),
      call("c1", "cat src/app.py"),
      result("c1", "def load_config():\n".repeat(400)),
      user("Now run the tests."),
    ];
    const r = await evictUnits(m, { ...settings, preserveLast: 1 }, run())();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.evicted.map((e) => e.kind)).toEqual(["tool:bash"]);
    expect(r.right.kept).toContainEqual(m[1]);
    expect(r.right.budgetMet).toBe(true);
  });
});
