import type { Message } from "@cc/messages";
import { tiktokenCounter } from "@cc/tokens";
import * as E from "fp-ts/lib/Either.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dedupe, prepare, splitOf, taskIdentity, taskOf, taskSplit, type RawSession } from "../retention/corpora.js";
import { contextText } from "../retention/evaluate.js";
import {
  budgetOf,
  fitted,
  managerContender,
  replaySession,
  ruleContender,
  type PreparedSession,
  type ReplayScore,
  type Tokens,
} from "../retention/replay.js";
import {
  fifoRule,
  importanceRule,
  largestFirstRule,
  lruRule,
  observationMaskingRule,
  toolResultClearingRule,
  type Rule,
  type RuleInput,
} from "../retention/rules.js";
import { MANAGER_CANDIDATES, selectManager } from "../retention/selection.js";
import { generatedSessions } from "../retention/sessions.js";
import { cells, counts, difference, estimate, meanOverBudgets, resamples, type Cell } from "../retention/stats.js";
import { runsFor } from "../../.ci/support/runs.js";

const numRuns = runsFor(50, 200);

/** A cheap deterministic count (characters / 4) for protocol tests. */
const cheap: Tokens = (() => {
  const exact = tiktokenCounter();
  return { counter: exact, count: (m: Message) => Math.ceil(contextText(m).length / 4) };
})();

const prep = (sessions: readonly RawSession[], tokens: Tokens = cheap): PreparedSession[] => {
  const r = prepare(sessions, tokens.count, 1_700_000_000_000, 1000);
  if (E.isLeft(r)) throw new Error(r.left);
  return r.right;
};

const score = (over: Partial<ReplayScore>): ReplayScore => ({
  session: "s",
  corpus: "c",
  split: "eval",
  generated: false,
  policy: "p",
  share: 0.1,
  budget: 100,
  needed: { n: 10, kept: 4, available: 6, recoverable: 2 },
  distant: { n: 4, kept: 1, available: 2, recoverable: 1 },
  reaccess: { n: 5, kept: 5 },
  grounding: { n: 2, kept: 1 },
  steps: 3,
  overBudget: 0,
  ...over,
});

describe("retention statistics", () => {
  it("means pooled shares over budgets, leaving out budgets with nothing scored", () => {
    const cs: Cell[] = [
      { session: "a", budget: 1, num: 1, den: 2 },
      { session: "b", budget: 1, num: 3, den: 2 },
      { session: "a", budget: 2, num: 0, den: 0 },
      { session: "a", budget: 3, num: 0, den: 4 },
    ];
    // budget 1: 4/4 = 1; budget 3: 0/4 = 0; budget 2 left out.
    expect(meanOverBudgets(cs)).toBe(0.5);
    expect(meanOverBudgets(cs, new Map([["a", 0]]))).toBe(1.5);
  });

  it("reads each metric's counts, one cell per session and budget share", () => {
    const r = score({});
    expect(counts(r, "needed.kept")).toEqual([4, 10]);
    expect(counts(r, "needed.available")).toEqual([6, 10]);
    expect(counts(r, "needed.recoverable")).toEqual([2, 10]);
    expect(counts(r, "distant.available")).toEqual([2, 4]);
    expect(counts(r, "reaccess")).toEqual([5, 5]);
    expect(counts(r, "grounding")).toEqual([1, 2]);
    expect(cells([r, score({ share: 0.2 })], "needed.kept")).toEqual([
      { session: "s", budget: 0.1, num: 4, den: 10 },
      { session: "s", budget: 0.2, num: 4, den: 10 },
    ]);
  });

  it("a clustered interval is degenerate for one session and brackets the value for many; paired differences of a contender with itself are 0", () => {
    const one: Cell[] = [{ session: "a", budget: 1, num: 1, den: 4 }];
    const e = estimate(one, resamples(["a"], 50, 1));
    expect([e.value, e.lo, e.hi]).toEqual([0.25, 0.25, 0.25]);
    const many: Cell[] = Array.from({ length: 20 }, (_, i) => ({ session: `s${i}`, budget: 1, num: i % 2, den: 1 }));
    const draws = resamples(
      many.map((c) => c.session),
      400,
      7,
    );
    const m = estimate(many, draws);
    expect(m.lo).toBeLessThan(m.value);
    expect(m.hi).toBeGreaterThan(m.value);
    expect(difference(many, many, draws)).toEqual({ value: 0, lo: 0, hi: 0 });
  });

  it("a resample gives every session its count, 0 when not drawn, so an undrawn session weighs nothing", () => {
    const draws = resamples(["a", "b"], 200, 3);
    for (const w of draws) {
      expect([...w.keys()].sort()).toEqual(["a", "b"]);
      expect((w.get("a") ?? 0) + (w.get("b") ?? 0)).toBe(2);
    }
    // Sessions scoring 1 and 0: a draw of `a` twice is 1, of `b` twice 0 — the interval reaches both ends.
    const e = estimate(
      [
        { session: "a", budget: 1, num: 1, den: 1 },
        { session: "b", budget: 1, num: 0, den: 1 },
      ],
      draws,
    );
    expect([e.value, e.lo, e.hi]).toEqual([0.5, 0, 1]);
  });
});

describe("pre-registered choice of the manager's configuration", () => {
  it("keeps the defaults unless another candidate is more than half a point better; the defaults come first", () => {
    expect(MANAGER_CANDIDATES[0]).toEqual({ label: "manager (defaults)", options: {} });
    expect(
      selectManager([
        { label: "d", objective: 0.7 },
        { label: "x", objective: 0.704 },
      ])?.label,
    ).toBe("d");
    expect(
      selectManager([
        { label: "d", objective: 0.7 },
        { label: "x", objective: 0.706 },
      ])?.label,
    ).toBe("x");
    expect(selectManager([{ label: "d", objective: Number.NaN }])).toBeUndefined();
  });
});

describe("corpora", () => {
  it("takes the task from the file name, de-duplicates replays within a corpus, splits on the task alone", () => {
    expect(taskOf("replay__x__marshmallow-code__marshmallow-1867.traj")).toBe("marshmallow-1867");
    expect(taskOf("django__django-1.traj.json")).toBe("django-1");
    const raw = ["b", "a", "c"].map((name) => ({ name, task: name === "c" ? "u" : "t", corpus: "x", messages: [] }));
    expect(dedupe(raw)).toEqual({ kept: [raw[1], raw[2]], dropped: ["b"] });
    // One task, whatever corpus replays it, is in one split.
    expect(taskIdentity(taskOf("replay__x__marshmallow-code__Marshmallow-1867.traj"))).toBe("marshmallow-1867");
    const [a, b] = prep([
      { name: "swe", task: "marshmallow-1867", corpus: "swe-agent", messages: [{ role: "user", content: "x" }] },
      { name: "mini", task: "Marshmallow-1867", corpus: "mini-gemini", messages: [{ role: "user", content: "x" }] },
    ]);
    expect(a!.split).toBe(b!.split);
    expect(a!.split).toBe(taskSplit("marshmallow-1867"));
    // The cost benchmark keeps its own pre-registered split (corpus and task).
    expect(splitOf("x", "t")).toBe(splitOf("x", "t"));
  });

  it("budgets are shares of the peak running context (every message, nothing evicted)", () => {
    const [s] = prep([
      {
        name: "s",
        task: "s",
        corpus: "x",
        messages: [
          { role: "user", content: "a".repeat(400) },
          { role: "assistant", content: "b".repeat(400) },
        ],
      },
    ]);
    expect(s!.peak).toBe(200);
    expect(budgetOf(s!, 0.1)).toBe(20);
    expect(budgetOf(s!, 0.5)).toBe(100);
  });
});

const call = (id: string, command: string): { id: string; name: string; arguments: string } => ({
  id,
  name: "bash",
  arguments: JSON.stringify({ command }),
});

describe("replay", () => {
  const messages: Message[] = [
    { role: "system", content: "sys" },
    { role: "user", content: "ISSUE: fix parse_date in dates.py" },
    { role: "assistant", content: "look", toolCalls: [call("c1", "cat big_module.py")] },
    { role: "tool", toolCallId: "c1", content: `${"x ".repeat(300)}\nhelper_fn defined in big_module.py at line 4711` },
    { role: "assistant", content: "now dates.py", toolCalls: [call("c2", "cat dates.py")] },
    { role: "tool", toolCallId: "c2", content: "def parse_date(): pass  # calls helper_fn" },
    {
      role: "assistant",
      content: "helper_fn is what parse_date needs",
      toolCalls: [call("c3", "sed -n 4711p big_module.py")],
    },
  ];

  it("scores needed facts kept when the context holds them, recoverable when the agent's own words find them in the index", async () => {
    const [s] = prep([{ name: "s", task: "s", corpus: "x", messages }]);
    // big_module.py is the agent's own at message 2 (no origin showed it before); 4711 only the
    // observation showed (message 3, three messages back: not distant).
    expect(s!.needed).toEqual([
      { at: 4, literal: "dates.py", distant: false },
      { at: 6, literal: "4711", distant: false },
    ]);
    // 0.6 of the peak: message 3 overflows the budget, FIFO drops the call and its result.
    const r = await replaySession(s!, ruleContender(fifoRule), 0.6, cheap, 5);
    if (E.isLeft(r)) throw new Error(r.left);
    // At message 4 dates.py is in the task (kept); at message 6, 4711 left with message 3 and the
    // agent's words ("helper_fn is what parse_date needs … big_module.py") find message 3.
    expect(r.right.needed).toEqual({ n: 2, kept: 1, available: 1, recoverable: 1 });
    expect(r.right.steps).toBe(3);
    expect(r.right.overBudget).toBe(0);
  });

  it("cuts an over-budget context to the budget for scoring (system prompts, then the newest)", () => {
    const shown = [
      { message: { role: "system", content: "s".repeat(40) } as const, recalled: false },
      { message: { role: "user", content: "u".repeat(40) } as const, recalled: false },
      { message: { role: "user", content: "v".repeat(40) } as const, recalled: false },
    ];
    expect(fitted(shown, 30, cheap.count)).toBe(shown);
    expect(fitted(shown, 20, cheap.count).map((x) => x.message.content[0])).toEqual(["s", "v"]);
  });

  it("the manager contender feeds the manager its previous output plus the new message, and scores what it sends", async () => {
    const gen = generatedSessions([{ seed: 3, turns: 10, outputLines: 40 }])[0]!;
    const exact: Tokens = { counter: tiktokenCounter(), count: (m: Message) => exact.counter.count(contextText(m)) };
    const [s] = prep(
      [{ name: gen.name, task: "gen-s3", corpus: "generated", messages: gen.messages, generated: true }],
      exact,
    );
    const r = await replaySession(s!, managerContender("manager", MANAGER_CANDIDATES[0]!.options), 0.3, exact, 5);
    if (E.isLeft(r)) throw new Error(r.left);
    expect(r.right.steps).toBeGreaterThan(0);
    expect(r.right.needed.kept).toBeLessThanOrEqual(r.right.needed.available);
    expect(r.right.needed.available + r.right.needed.recoverable).toBeLessThanOrEqual(r.right.needed.n);
    expect(r.right.generated).toBe(true);
  });
});

const RULES: readonly Rule[] = [
  fifoRule,
  lruRule,
  largestFirstRule,
  observationMaskingRule,
  toolResultClearingRule,
  importanceRule({}),
];

/** A rule that records what it was given and delegates to `inner`. */
function recording(inner: Rule): { rule: Rule; calls: RuleInput[] } {
  const calls: RuleInput[] = [];
  return { calls, rule: { name: inner.name, apply: (input) => (calls.push(input), inner.apply(input)) } };
}

describe("replay fairness (the protocol every rule gets)", () => {
  const word = fc.constantFrom(
    "app.py",
    "td_field",
    "KeyError",
    "TimeDelta",
    "hello",
    "x.rs",
    "lorem ipsum dolor",
    "parse_config",
    "ISSUE:",
    "4711",
  );
  const text = fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(" "));
  /** Sessions with tool calls answered by their results, text turns, system prompts. */
  const session = fc
    .array(fc.tuple(fc.constantFrom("text", "call", "system"), text, text), { minLength: 2, maxLength: 12 })
    .map((turns): Message[] =>
      turns.flatMap(([kind, a, b], i): Message[] => {
        if (kind === "system") return [{ role: "system", content: a }];
        if (kind === "text")
          return [
            { role: "user", content: a },
            { role: "assistant", content: `\`\`\`bash\n${b}\n\`\`\`` },
          ];
        return [
          { role: "assistant", content: a, toolCalls: [call(`c${i}`, b)] },
          { role: "tool", toolCallId: `c${i}`, content: `${a} ${b}` },
        ];
      }),
    );

  it("every rule's steps are valid (checked by the replay), the clock is the arriving message's, and the context ends with it; the same uses are scored for every rule (property)", async () => {
    await fc.assert(
      fc.asyncProperty(session, fc.constantFrom(0.1, 0.3, 0.5), async (msgs, share) => {
        const [s] = prep([{ name: "p", task: "p", corpus: "x", messages: msgs }]);
        const scored = new Set<number>();
        for (const inner of RULES) {
          const rec = recording(inner);
          const r = await replaySession(s!, ruleContender(rec.rule), share, cheap, 5);
          if (E.isLeft(r)) throw new Error(r.left);
          scored.add(r.right.needed.n + r.right.reaccess.n + r.right.grounding.n);
          for (const c of rec.calls) {
            const last = c.context[c.context.length - 1]!;
            expect(c.now).toBe(s!.times[last.source]);
            expect(c.budget).toBe(budgetOf(s!, share));
          }
        }
        expect(scored.size).toBe(1);
      }),
      { numRuns },
    );
  });
});
