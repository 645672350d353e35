import { createHash } from "node:crypto";
import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { summaryMessage, type Message } from "@cc/messages";
import { memoryIndex } from "@cc/search";
import { buildSegments, evictUnits, withNote } from "@cc/hierarchical";
import { reaccesses, references } from "@cc/test-support/hierarchical";
import { estimateCounter } from "@cc/tokens";
import {
  evictionNote,
  EVICTION_NOTE_PREFIX,
  MAX_REFERENCES,
  MAX_WORD_CHARS,
  SCAN_CHARS,
  unitId,
} from "@cc/test-support/hierarchical";
import { restoringOriginals } from "../../src/strategy/mask.js";
import { messageUnits, unitKind, unitText } from "@cc/messages";
import { runsFor } from "../../../../.ci/support/runs.js";

const numRuns = runsFor(100, 1000);
const counter = estimateCounter();
const NOW = 1_700_000_000_000;

const sys: Message = { role: "system", content: "You are a coding agent." };
const call = (id: string, name = "bash"): Message => ({
  role: "assistant",
  content: `run ${id}`,
  toolCalls: [{ id, name, arguments: `{"cmd":"cat src/${id}.py"}` }],
});
const result = (id: string, body = "ok"): Message => ({
  role: "tool",
  content: `${body} src/${id}.py`,
  toolCallId: id,
  name: "bash",
});

/** A random chat: system head, then users, assistants with 0–2 calls answered in order, and orphan results. */
const chat = fc
  .array(
    fc.oneof(
      fc.constant<"user">("user"),
      fc.integer({ min: 0, max: 2 }).map((n) => ({ calls: n })),
      fc.constant<"orphan">("orphan"),
    ),
    { maxLength: 30 },
  )
  .map((steps) => {
    const out: Message[] = [sys];
    steps.forEach((s, i) => {
      if (s === "user") out.push({ role: "user", content: `look at mod_${i}.py` });
      else if (s === "orphan") out.push({ role: "tool", content: "late", toolCallId: `gone${i}`, name: "bash" });
      else {
        const ids = Array.from({ length: s.calls }, (_, k) => `c${i}_${k}`);
        out.push({
          role: "assistant",
          content: `step ${i}`,
          ...(ids.length === 0 ? {} : { toolCalls: ids.map((id) => ({ id, name: "bash", arguments: "{}" })) }),
        });
        for (const id of ids) out.push(result(id, "x\n".repeat(40)));
      }
    });
    return out;
  });

describe("messageUnits", () => {
  it("keeps an assistant message with the tool results that answer it", () => {
    const m = [
      sys,
      { role: "user", content: "go" } as Message,
      call("a"),
      result("a"),
      call("b"),
      result("b"),
      { role: "user", content: "again" } as Message,
    ];
    expect(messageUnits(m).map((u) => [u.start, u.end])).toEqual([
      [0, 1],
      [1, 2],
      [2, 4],
      [4, 6],
      [6, 7],
    ]);
    expect(messageUnits([])).toEqual([]);
  });

  it("a tool result with no earlier call stands alone; one between a call and its result stays inside the pair", () => {
    // Pair-safe units are contiguous: the orphan z sits between call a and its result, so it rides along.
    expect(messageUnits([call("a"), result("z"), result("a")]).map((u) => [u.start, u.end])).toEqual([[0, 3]]);
    // Outside any pair an orphaned result is its own unit.
    expect(messageUnits([result("z"), call("a"), result("a"), result("y")]).map((u) => [u.start, u.end])).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
    ]);
    // Interleaved calls (A, B, result of A, result of B) form one unit.
    expect(messageUnits([call("a"), call("b"), result("a"), result("b")]).map((u) => [u.start, u.end])).toEqual([
      [0, 4],
    ]);
  });

  it("property: units tile the input in order and a tool result only joins the call it answers", () => {
    fc.assert(
      fc.property(chat, (m) => {
        const units = messageUnits(m);
        expect(units.flatMap((u) => u.messages)).toEqual(m);
        let at = 0;
        for (const u of units) {
          expect(u.start).toBe(at);
          expect(u.end).toBeGreaterThan(u.start);
          at = u.end;
          const [head, ...rest] = u.messages;
          const ids = new Set(head?.role === "assistant" ? (head.toolCalls ?? []).map((c) => c.id) : []);
          for (const r of rest) expect(r.role === "tool" && ids.has(r.toolCallId)).toBe(true);
        }
        expect(at).toBe(m.length);
      }),
      { numRuns },
    );
  });

  it("unitKind names the first tool, unitText carries calls and labelled results", () => {
    const [u] = messageUnits([call("a", "read_file"), result("a", "body")]);
    expect(unitKind(u!)).toBe("tool:read_file");
    expect(unitText(u!)).toBe('run a\n[call read_file] {"cmd":"cat src/a.py"}\n[bash result]\nbody src/a.py');
    expect(unitKind({ start: 0, end: 0, messages: [] })).toBe("empty");
    expect(unitKind(messageUnits([summaryMessage("earlier work")])[0]!)).toBe("summary");
    expect(unitKind(messageUnits([{ role: "user", content: "plain" }])[0]!)).toBe("user");
  });
});

describe("references and reaccesses", () => {
  it("finds paths, their file names and identifiers in order of appearance", () => {
    expect(references("edit src/app/models.py: fix load_config")).toEqual([
      "src/app/models.py",
      "models.py",
      "load_config",
    ]);
    expect(references("TaxRuleSet and computeTotal and MAX_SIZE")).toEqual(["TaxRuleSet", "computeTotal", "MAX_SIZE"]);
  });

  it("odd input: empty, lone surrogates, CJK, emoji and huge text never throw and stay bounded", () => {
    expect(references("")).toEqual([]);
    expect(references("\ud800 文件 src/数据.py 🚀 load_config")).toContain("load_config");
    const huge = Array.from({ length: 5000 }, (_, i) => `name_${i}`).join(" ");
    expect(references(huge).length).toBe(MAX_REFERENCES);
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => references(s).length <= MAX_REFERENCES),
      { numRuns },
    );
  });

  it("a run of path characters longer than MAX_WORD_CHARS (base64, hashes) names nothing; the text around it still does", () => {
    const blob = "QUJD".repeat(MAX_WORD_CHARS);
    expect(references(`see src/a.py ${blob} and load_config`)).toEqual(["src/a.py", "a.py", "load_config"]);
    expect(references("a.".repeat(SCAN_CHARS))).toEqual([]);
  });

  it("property: reaccesses agrees with the quadratic definition", () => {
    const refs = fc.array(fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e"), { maxLength: 3 }), {
      maxLength: 20,
    });
    fc.assert(
      fc.property(refs, (rs) => {
        const got = reaccesses(rs);
        rs.forEach((mine, i) => {
          const later = rs.map((r, j) => (j > i && r.some((x) => mine.includes(x)) ? j : -1)).filter((j) => j >= 0);
          expect(got[i]).toEqual(
            later.length === 0 ? { count: 0 } : { count: later.length, last: later[later.length - 1] },
          );
        });
      }),
      { numRuns },
    );
  });
});

describe("buildSegments", () => {
  it("pins the system head and the preserved tail, dates units in order, counts re-accesses", () => {
    const m = [
      sys,
      { role: "user", content: "fix src/a.py" } as Message,
      call("a"),
      result("a"),
      { role: "user", content: "recheck src/a.py" } as Message,
    ];
    const segs = buildSegments(m, { counter, now: NOW, preserveLast: 1 });
    expect(segs.map((s) => [s.pinned, s.kind])).toEqual([
      [true, "system"],
      [false, "user"],
      [false, "tool:bash"],
      [true, "user"],
    ]);
    // Content-addressed ids: `u` + 32 hex digits (128 bits) of the SHA-256 of the unit's messages.
    expect(segs.map((s) => s.id)).toEqual(segs.map((s) => unitId(s.unit)));
    for (const s of segs) expect(s.id).toMatch(/^u[0-9a-f]{32}$/);
    expect(segs[0]!.id).toBe(
      `u${createHash("sha256")
        .update(JSON.stringify([sys]))
        .digest("hex")
        .slice(0, 32)}`,
    );
    expect(segs.map((s) => s.createdAt)).toEqual([NOW - 180_000, NOW - 120_000, NOW - 60_000, NOW]);
    // Reuse comes from the agent's own references only: the assistant's call (unit 2) names
    // src/a.py; the tool output and the user's later "recheck src/a.py" (unit 3) do not count.
    expect(segs[1]).toMatchObject({ turn: 1, accessCount: 1, lastAccessedTurn: 2, lastAccessed: NOW - 60_000 });
    expect(segs.map((s) => s.turn)).toEqual([0, 1, 2, 3]);
    for (const s of segs) expect(s.tokenCost).toBeGreaterThan(0);
  });

  it("ids are stable across passes and a repeated unit within one conversation gets .2, .3", () => {
    const hi = { role: "user", content: "hi" } as Message;
    const once = buildSegments([sys, hi], { counter, now: NOW, preserveLast: 0 });
    const later = buildSegments([sys, hi, { role: "user", content: "more" }, hi, hi], {
      counter,
      now: NOW + 5,
      preserveLast: 0,
    });
    expect(later.slice(0, 2).map((s) => s.id)).toEqual(once.map((s) => s.id));
    const base = once[1]!.id;
    expect(later.map((s) => s.id).slice(3)).toEqual([`${base}.2`, `${base}.3`]);
  });
});

const conversation = (n: number): Message[] => {
  const out: Message[] = [sys, { role: "user", content: "Fix the failing test" }];
  for (let i = 0; i < n; i++) out.push(call(`t${i}`), result(`t${i}`, "line of output\n".repeat(60)));
  out.push({ role: "user", content: "run the tests again" });
  return out;
};
const settings = { targetTokens: 1500, preserveLast: 2, namespace: "ns", noteTokens: 200, concurrency: 2 };

describe("evictUnits", () => {
  it("evicts to the target, prefixes ids, and the note plus kept messages fit", async () => {
    const index = memoryIndex();
    const m = conversation(8);
    const r = await evictUnits(m, { ...settings, idPrefix: "c1." }, { index, counter, now: NOW })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.evicted.length).toBeGreaterThan(0);
    for (const e of r.right.evicted) expect(e.id).toMatch(/^c1\.u[0-9a-f]{32}(\.\d+)?$/);
    expect(r.right.noteFits).toBe(true);
    expect(r.right.reservedTokens).toBeGreaterThan(0);
    expect(r.right.note.startsWith(EVICTION_NOTE_PREFIX)).toBe(true);
    const out = withNote(r.right.kept, r.right.note);
    expect(out[0]).toBe(sys);
    expect(out[1]?.content).toContain(r.right.note);
    expect(counter.countMessages(out)).toBeLessThanOrEqual(settings.targetTokens);
    expect(r.right.budgetMet).toBe(true);
    const x = await index.expand(r.right.evicted[0]!.id, "ns")();
    expect(E.isRight(x) && x.right !== undefined).toBe(true);
  });

  it("a failing index (closed) keeps every unit in context and lists the failures", async () => {
    const broken = memoryIndex();
    await broken.close()();
    const m = conversation(6);
    const r = await evictUnits(m, settings, { index: broken, counter, now: NOW })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right.evicted).toEqual([]);
    expect(r.right.kept).toEqual(m);
    expect(r.right.note).toBe("");
    expect(r.right.failures.length).toBeGreaterThan(0);
    expect(r.right.failures[0]).toEqual({
      id: expect.stringMatching(/^u[0-9a-f]{32}$/),
      reason: expect.stringMatching(/^WriteFailed .*IndexClosed/),
    });
    const ids = new Set(r.right.segments.map((s) => s.id));
    for (const f of r.right.failures) expect(ids.has(f.id)).toBe(true);
  });

  it("below the target nothing leaves", async () => {
    const m = conversation(1);
    const r = await evictUnits(
      m,
      { ...settings, targetTokens: 100_000 },
      { index: memoryIndex(), counter, now: NOW },
    )();
    expect(E.isRight(r) && r.right.kept).toEqual(m);
    expect(withNote(m, "")).toBe(m);
  });

  it("budget 500 with noteTokens 512: a typed, honest result — never budgetMet without fitting, never a silent no-op", async () => {
    const index = memoryIndex();
    const m = conversation(8);
    expect(counter.countMessages(m)).toBeGreaterThan(500);
    const r = await evictUnits(m, { ...settings, targetTokens: 500, noteTokens: 512 }, { index, counter, now: NOW })();
    if (E.isLeft(r)) throw new Error(r.left.message);
    const overhead = counter.countMessages([summaryMessage("")]);
    // The note budget is cut to a quarter of the target and the result says how much was reserved.
    expect(r.right.reservedTokens).toBe(overhead + 125);
    expect(r.right.noteFits).toBe(true);
    expect(r.right.evicted.length).toBeGreaterThan(0);
    expect(r.right.budgetMet).toBe(true);
    expect(counter.countMessages(withNote(r.right.kept, r.right.note))).toBeLessThanOrEqual(500);
  });

  it("a target that cannot hold even the note's reservation evicts nothing and says noteFits: false (not 'no budget')", async () => {
    const index = memoryIndex();
    const m = conversation(8);
    const overhead = counter.countMessages([summaryMessage("")]);
    const target = overhead; // a quarter of it for the note plus the overhead exceeds the target
    const r = await evictUnits(
      m,
      { ...settings, targetTokens: target, noteTokens: 512 },
      { index, counter, now: NOW },
    )();
    if (E.isLeft(r)) throw new Error(r.left.message);
    expect(r.right).toMatchObject({
      noteFits: false,
      budgetMet: false,
      evicted: [],
      note: "",
      failures: [],
      aborted: false,
    });
    expect(r.right.kept).toBe(m);
    expect(r.right.reservedTokens).toBeGreaterThan(target);
    expect(r.right.reservedTokens).toBeGreaterThanOrEqual(overhead + Math.floor(target / 4));
    for (const seg of r.right.segments) expect(await index.expand(seg.id, "ns")()).toEqual(E.right(undefined));
  });

  it("regression: a note budget of 0 still reserves room for the note's prefix (budgetMet never claimed over the target)", async () => {
    const m = conversation(3);
    const r = await evictUnits(
      m,
      { ...settings, targetTokens: 500, noteTokens: 0 },
      { index: memoryIndex(), counter, now: NOW },
    )();
    if (E.isLeft(r)) throw new Error(r.left.message);
    const tokens = counter.countMessages(withNote(r.right.kept, r.right.note));
    expect(r.right.budgetMet).toBe(tokens <= 500);
    if (r.right.evicted.length > 0) expect(tokens).toBeLessThanOrEqual(500);
  });

  it("property: budgetMet is true only when the note plus kept messages fit the target", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1, max: 10 }),
        async (target, note, n) => {
          const m = conversation(n);
          const r = await evictUnits(
            m,
            { ...settings, targetTokens: target, noteTokens: note },
            { index: memoryIndex(), counter, now: NOW },
          )();
          if (E.isLeft(r)) throw new Error(r.left.message);
          if (r.right.budgetMet)
            expect(counter.countMessages(withNote(r.right.kept, r.right.note))).toBeLessThanOrEqual(target);
          if (!r.right.noteFits) expect(r.right.evicted).toEqual([]);
        },
      ),
      { numRuns: Math.min(numRuns, 100) },
    );
  });

  it("property: over N passes of a growing conversation into one index, every id any note named expands to its unit's text", async () => {
    const step = fc.oneof(
      fc.string({ maxLength: 60 }).map((t): Message[] => [{ role: "user", content: `ask ${t} src/mod.py` }]),
      fc
        .tuple(fc.nat(5), fc.integer({ min: 1, max: 80 }))
        .map(([k, lines]): Message[] => [call(`k${k}`), result(`k${k}`, "output line\n".repeat(lines))]),
      fc.constant<Message[]>([{ role: "user", content: "hi" }]),
    );
    const batches = fc.array(fc.array(step, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(batches, fc.integer({ min: 300, max: 1500 }), async (bs, target) => {
        const index = memoryIndex();
        const named = new Map<string, string>();
        let context: readonly Message[] = [sys];
        let n = 0;
        for (const batch of bs) {
          context = [...context, ...batch.flat()];
          const r = await evictUnits(
            context,
            { ...settings, targetTokens: target, noteTokens: 120 },
            { index, counter, now: NOW + n++ * 1000 },
          )();
          if (E.isLeft(r)) throw new Error(r.left.message);
          // A unit that leaves holding a stub (an output clipped by an earlier pass) is stored with
          // the original output: its expected text is the unit's with each stub's original restored.
          const restore = restoringOriginals(new Map(), async (id) => {
            const x = await index.expand(id, "ns")();
            return E.isRight(x) ? x.right?.content : undefined;
          });
          const texts = new Map(
            await Promise.all(r.right.segments.map(async (s) => [s.id, (await restore(s)).content] as const)),
          );
          for (const e of r.right.evicted) {
            const text = texts.get(e.id)!;
            expect(named.get(e.id) ?? text).toBe(text); // an id never names two different texts
            named.set(e.id, text);
          }
          context = withNote(r.right.kept, r.right.note);
        }
        for (const [id, text] of named) {
          const x = await index.expand(id, "ns")();
          expect(E.isRight(x) && x.right?.content).toBe(text);
        }
      }),
      { numRuns: Math.min(numRuns, 60) },
    );
  });
});

describe("evictUnits options", () => {
  it("are decoded by closed codecs: a typo, NaN or a broken index is a typed InvalidOptions, not a throw", async () => {
    const run = { index: memoryIndex(), counter, now: NOW };
    const typo = await evictUnits(
      conversation(2),
      { ...settings, targetTokns: 10 } as unknown as typeof settings,
      run,
    )();
    expect(E.isLeft(typo) && typo.left).toMatchObject({
      _tag: "InvalidOptions",
      subject: "eviction options",
      problems: [{ message: "targetTokns: unknown field (did you mean targetTokens?)" }],
    });
    for (const bad of [
      { targetTokens: Number.NaN },
      { noteTokens: -1 },
      { concurrency: 0 },
      { preserveLast: Number.POSITIVE_INFINITY },
    ]) {
      const r = await evictUnits(conversation(2), { ...settings, ...bad }, run)();
      expect(E.isLeft(r) && r.left.problems.map((p) => p.path)).toEqual(Object.keys(bad));
    }
    const noClock = await evictUnits(conversation(2), settings, { ...run, now: Number.NaN })();
    expect(E.isLeft(noClock) && noClock.left).toMatchObject({
      _tag: "InvalidOptions",
      subject: "eviction run options",
      problems: [{ path: "now" }],
    });
    const noIndex = await evictUnits(conversation(2), settings, { ...run, index: {} } as unknown as typeof run)();
    expect(E.isLeft(noIndex) && noIndex.left.problems.map((p) => p.path)).toEqual(["index"]);
  });
});

describe("evictionNote", () => {
  it("lists entries and cuts to the token limit with a count of the rest", () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({
      id: `m${i}`,
      kind: "tool:bash",
      tokens: 100 + i,
      summary: `summary of unit ${i} with src/f${i}.py`,
    }));
    const full = evictionNote(entries.slice(0, 2), 1000, counter);
    expect(full).toBe(
      `${EVICTION_NOTE_PREFIX}\n- m0 (tool:bash, 100 tokens): summary of unit 0 with src/f0.py\n- m1 (tool:bash, 101 tokens): summary of unit 1 with src/f1.py`,
    );
    const cut = evictionNote(entries, 120, counter);
    expect(counter.count(cut)).toBeLessThanOrEqual(140);
    expect(cut).toMatch(/… \d+ more in the journal$/);
  });
});
