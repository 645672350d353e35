import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { summaryMessage, type Message } from "@cc/messages";
import { memoryIndex } from "../../src/search/memory.js";
import { buildSegments, evictUnits, reaccesses, references, withNote } from "@cc/hierarchical";
import { estimateCounter } from "@cc/tokens";
import { evictionNote, EVICTION_NOTE_PREFIX, MAX_REFERENCES, MAX_WORD_CHARS, SCAN_CHARS } from "@cc/hierarchical/internal";
import { messageUnits, unitKind, unitText } from "@cc/messages";

const numRuns = process.env["CI"] !== undefined ? 1000 : 100;
const counter = estimateCounter();
const NOW = 1_700_000_000_000;

const sys: Message = { role: "system", content: "You are a coding agent." };
const call = (id: string, name = "bash"): Message => ({ role: "assistant", content: `run ${id}`, toolCalls: [{ id, name, arguments: `{"cmd":"cat src/${id}.py"}` }] });
const result = (id: string, body = "ok"): Message => ({ role: "tool", content: `${body} src/${id}.py`, toolCallId: id, name: "bash" });

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
        out.push({ role: "assistant", content: `step ${i}`, ...(ids.length === 0 ? {} : { toolCalls: ids.map((id) => ({ id, name: "bash", arguments: "{}" })) }) });
        for (const id of ids) out.push(result(id, "x\n".repeat(40)));
      }
    });
    return out;
  });

describe("messageUnits", () => {
  it("keeps an assistant message with the tool results that answer it", () => {
    const m = [sys, { role: "user", content: "go" } as Message, call("a"), result("a"), call("b"), result("b"), { role: "user", content: "again" } as Message];
    expect(messageUnits(m).map((u) => [u.start, u.end])).toEqual([[0, 1], [1, 2], [2, 4], [4, 6], [6, 7]]);
    expect(messageUnits([])).toEqual([]);
  });

  it("a tool result with no open call stands alone", () => {
    const m = [call("a"), result("z"), result("a")];
    expect(messageUnits(m).map((u) => [u.start, u.end])).toEqual([[0, 1], [1, 2], [2, 3]]);
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
    expect(references("edit src/app/models.py: fix load_config")).toEqual(["src/app/models.py", "models.py", "load_config"]);
    expect(references("TaxRuleSet and computeTotal and MAX_SIZE")).toEqual(["TaxRuleSet", "computeTotal", "MAX_SIZE"]);
  });

  it("odd input: empty, lone surrogates, CJK, emoji and huge text never throw and stay bounded", () => {
    expect(references("")).toEqual([]);
    expect(references("\ud800 文件 src/数据.py 🚀 load_config")).toContain("load_config");
    const huge = Array.from({ length: 5000 }, (_, i) => `name_${i}`).join(" ");
    expect(references(huge).length).toBe(MAX_REFERENCES);
    fc.assert(fc.property(fc.string({ unit: "binary" }), (s) => references(s).length <= MAX_REFERENCES), { numRuns });
  });

  it("a run of path characters longer than MAX_WORD_CHARS (base64, hashes) names nothing; the text around it still does", () => {
    const blob = "QUJD".repeat(MAX_WORD_CHARS);
    expect(references(`see src/a.py ${blob} and load_config`)).toEqual(["src/a.py", "a.py", "load_config"]);
    expect(references("a.".repeat(SCAN_CHARS))).toEqual([]);
  });

  it("property: reaccesses agrees with the quadratic definition", () => {
    const refs = fc.array(fc.uniqueArray(fc.constantFrom("a", "b", "c", "d", "e"), { maxLength: 3 }), { maxLength: 20 });
    fc.assert(
      fc.property(refs, (rs) => {
        const got = reaccesses(rs);
        rs.forEach((mine, i) => {
          const later = rs.map((r, j) => (j > i && r.some((x) => mine.includes(x)) ? j : -1)).filter((j) => j >= 0);
          expect(got[i]).toEqual(later.length === 0 ? { count: 0 } : { count: later.length, last: later[later.length - 1] });
        });
      }),
      { numRuns },
    );
  });
});

describe("buildSegments", () => {
  it("pins the system head and the preserved tail, dates units in order, counts re-accesses", () => {
    const m = [sys, { role: "user", content: "fix src/a.py" } as Message, call("a"), result("a"), { role: "user", content: "recheck src/a.py" } as Message];
    const segs = buildSegments(m, { counter, now: NOW, preserveLast: 1 });
    expect(segs.map((s) => [s.id, s.pinned, s.kind])).toEqual([["m0", true, "system"], ["m1", false, "user"], ["m2", false, "tool:bash"], ["m4", true, "user"]]);
    expect(segs.map((s) => s.createdAt)).toEqual([NOW - 180_000, NOW - 120_000, NOW - 60_000, NOW]);
    expect(segs[1]).toMatchObject({ accessCount: 2, lastAccessed: NOW });
    for (const s of segs) expect(s.tokenCost).toBeGreaterThan(0);
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
    if (E.isLeft(r)) throw new Error(r.left.problems.join());
    expect(r.right.evicted.length).toBeGreaterThan(0);
    for (const e of r.right.evicted) expect(e.id).toMatch(/^c1\.m\d+$/);
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
    if (E.isLeft(r)) throw new Error(r.left.problems.join());
    expect(r.right.evicted).toEqual([]);
    expect(r.right.kept).toEqual(m);
    expect(r.right.note).toBe("");
    expect(r.right.failures.length).toBeGreaterThan(0);
    expect(r.right.failures[0]).toMatch(/^m\d+: WriteFailed .*IndexClosed/);
  });

  it("below the target nothing leaves", async () => {
    const m = conversation(1);
    const r = await evictUnits(m, { ...settings, targetTokens: 100_000 }, { index: memoryIndex(), counter, now: NOW })();
    expect(E.isRight(r) && r.right.kept).toEqual(m);
    expect(withNote(m, "")).toBe(m);
  });
});

describe("evictionNote", () => {
  it("lists entries and cuts to the token limit with a count of the rest", () => {
    const entries = Array.from({ length: 30 }, (_, i) => ({ id: `m${i}`, kind: "tool:bash", tokens: 100 + i, summary: `summary of unit ${i} with src/f${i}.py` }));
    const full = evictionNote(entries.slice(0, 2), 1000, counter);
    expect(full).toBe(`${EVICTION_NOTE_PREFIX}\n- m0 (tool:bash, 100 tokens): summary of unit 0 with src/f0.py\n- m1 (tool:bash, 101 tokens): summary of unit 1 with src/f1.py`);
    const cut = evictionNote(entries, 120, counter);
    expect(counter.count(cut)).toBeLessThanOrEqual(140);
    expect(cut).toMatch(/… \d+ more in the journal$/);
  });
});
