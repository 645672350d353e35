import { describe, expect, it } from "vitest";
import {
  EvictionTargetCodec,
  ImportanceOptionsCodec,
  SegmentCodec,
  SegmentsCodec,
  decodeSegmentsJson,
  ensureSegmentsValid,
  validateEvictionTarget,
  validateImportanceOptions,
} from "../src/index.js";

/** The problem messages of a Left, or [] for a Right. */
const messages = (r: ReturnType<typeof ensureSegmentsValid>): readonly string[] =>
  r._tag === "Left" ? r.left.problems.map((p) => p.message) : [];

describe("ensureSegmentsValid", () => {
  it("returns the caller's own array when everything is valid (extra fields allowed)", () => {
    const input = [
      {
        id: "a",
        content: "plain",
        tokenCost: 3,
        createdAt: 0,
        lastAccessed: 5,
        accessCount: 2,
        pinned: false,
        kind: "tool_result",
      },
      { id: "b", content: "", extra: { mine: true } },
    ];
    const r = ensureSegmentsValid(input);
    expect(r._tag === "Right" && r.right).toBe(input);
  });

  it("accepts an empty list", () => {
    expect(ensureSegmentsValid([])._tag).toBe("Right");
  });

  it("rejects non-arrays and non-objects with the index", () => {
    expect(messages(ensureSegmentsValid({ id: "a" }))).toEqual(["value: expected an array of segments, got an object"]);
    expect(messages(ensureSegmentsValid(["a", 1, [], null]))).toEqual([
      '[0]: expected a segment object, got "a"',
      "[1]: expected a segment object, got 1",
      "[2]: expected a segment object, got an array",
      "[3]: expected a segment object, got null",
    ]);
  });

  it("names field and index for NaN, negative, infinite, fractional and huge numbers", () => {
    const r = ensureSegmentsValid([
      { id: "a", content: "", tokenCost: Number.NaN },
      { id: "b", content: "", tokenCost: -5 },
      { id: "c", content: "", createdAt: Number.POSITIVE_INFINITY },
      { id: "d", content: "", accessCount: 1.5 },
      { id: "e", content: "", tokenCost: 2 ** 60 },
      { id: "f", content: "", lastAccessed: -1 },
    ]);
    expect(messages(r)).toEqual([
      "[0].tokenCost: expected a non-negative integer, got NaN",
      "[1].tokenCost: expected a non-negative integer, got -5",
      "[2].createdAt: expected a finite, non-negative epoch-millisecond time, got Infinity",
      "[3].accessCount: expected a non-negative integer, got 1.5",
      "[4].tokenCost: expected a non-negative integer, got 1152921504606847000",
      "[5].lastAccessed: expected a finite, non-negative epoch-millisecond time, got -1",
    ]);
    if (r._tag === "Left") {
      expect(r.left.problems[1]).toMatchObject({ index: 1, field: "tokenCost", path: "[1].tokenCost" });
      expect(r.left._tag).toBe("InvalidInput");
      expect(r.left.subject).toBe("segments");
    }
  });

  it("rejects empty ids, wrong types and lists every problem of every segment in index order", () => {
    const r = ensureSegmentsValid([
      { id: "", content: 1, pinned: "yes" },
      { content: "x", kind: 3 },
    ]);
    expect(messages(r)).toEqual([
      '[0].id: expected a non-empty string of well-formed Unicode, got ""',
      "[0].content: expected a string, got 1",
      '[0].pinned: expected a boolean, got "yes"',
      "[1].id: expected a non-empty string of well-formed Unicode, got undefined",
      "[1].kind: expected a string, got 3",
    ]);
  });

  it("reports every duplicate id with the index of its first occurrence", () => {
    const r = ensureSegmentsValid([
      { id: "x", content: "" },
      { id: "y", content: "" },
      { id: "x", content: "" },
      { id: "x", content: "" },
    ]);
    expect(messages(r)).toEqual(['[2].id: duplicate id "x" (first at [0])', '[3].id: duplicate id "x" (first at [0])']);
  });

  it("accepts CJK, emoji and combining marks; rejects ids with a lone surrogate but not content", () => {
    const ok = ensureSegmentsValid([
      { id: "日本語", content: "漢字テキスト" },
      { id: "🦀🚀", content: "👩‍👩‍👧 family" },
      { id: "é", content: "e\u0301" },
      { id: "lone-in-content", content: "broken \ud800 half" },
    ]);
    expect(ok._tag).toBe("Right");
    expect(messages(ensureSegmentsValid([{ id: "bad\udc00", content: "" }]))).toEqual([
      '[0].id: expected a non-empty string of well-formed Unicode, got "bad\\udc00"',
    ]);
  });

  it("shortens long offending strings in messages", () => {
    const long = "z".repeat(1000);
    const [m] = messages(
      ensureSegmentsValid([
        { id: "a", content: "", kind: 1 },
        { id: "b", content: "", tokenCost: long },
      ]),
    );
    expect(m).toBe("[0].kind: expected a string, got 1");
    const [m2] = messages(ensureSegmentsValid([{ id: "b", content: "", tokenCost: long }]));
    expect(m2!.length).toBeLessThan(120);
  });
});

describe("decodeSegmentsJson", () => {
  it("parses and validates JSON text", () => {
    const r = decodeSegmentsJson('[{"id":"a","content":"hi","tokenCost":2}]');
    expect(r._tag === "Right" && r.right).toEqual([{ id: "a", content: "hi", tokenCost: 2 }]);
  });

  it("reports malformed JSON as a typed value", () => {
    for (const text of ["[{", "", "{'id':1}", "[1,]"]) {
      const r = decodeSegmentsJson(text);
      expect(r._tag === "Left" && r.left._tag).toBe("MalformedJson");
    }
  });

  it("reports well-formed JSON with invalid segments as InvalidInput", () => {
    const r = decodeSegmentsJson('[{"id":"a","content":"x","tokenCost":null}]');
    expect(r._tag === "Left" && r.left.message).toBe(
      "invalid segments: [0].tokenCost: expected a non-negative integer, got null",
    );
  });
});

describe("options and target codecs", () => {
  it("accepts defaults, zero weights and functions", () => {
    expect(validateImportanceOptions({})._tag).toBe("Right");
    expect(
      validateImportanceOptions({
        recencyWeight: 0,
        reuseWeight: 0,
        costWeight: 0,
        now: () => 1,
        estimateTokens: () => 1,
      })._tag,
    ).toBe("Right");
    expect(validateImportanceOptions({ recencyHalfLifeMs: undefined })._tag).toBe("Right");
  });

  it("rejects bad weights, half-lives, non-functions and unknown fields by name", () => {
    const r = validateImportanceOptions({
      recencyHalfLifeMs: 0,
      recencyWeight: -1,
      reuseWeight: Number.NaN,
      costWeight: 1e7,
      now: 5,
      recencyWeigth: 1,
    });
    expect(r._tag === "Left" && r.left.problems.map((p) => p.message)).toEqual([
      "recencyHalfLifeMs: expected a finite number of milliseconds > 0, got 0",
      "recencyWeight: expected a finite number in [0, 1000000], got -1",
      "reuseWeight: expected a finite number in [0, 1000000], got NaN",
      "costWeight: expected a finite number in [0, 1000000], got 10000000",
      "now: expected a function () => number, got 5",
      "recencyWeigth: unknown field (did you mean recencyWeight?)",
    ]);
    expect(r._tag === "Left" && r.left).toMatchObject({
      _tag: "InvalidOptions",
      subject: "importance options",
      more: 0,
    });
    expect(r._tag === "Left" && r.left.message).toMatch(/^invalid importance options: recencyHalfLifeMs: /);
    const far = validateImportanceOptions({ zzzzzzzzzzzz: 1 });
    expect(far._tag === "Left" && far.left.problems.map((p) => p.message)).toEqual([
      "zzzzzzzzzzzz: unknown field (expected one of recencyHalfLifeMs, recencyWeight, reuseWeight, relevanceWeight, costWeight, now, estimateTokens, age, recencyHalfLifeTurns, currentTurn, keepNewest, kindWeights)",
    ]);
    expect(validateImportanceOptions(null)._tag).toBe("Left");
  });

  it("validates eviction targets", () => {
    expect(validateEvictionTarget({ maxTokens: 0 })._tag).toBe("Right");
    expect(validateEvictionTarget({ maxTokens: -10, minKeep: 2 })._tag).toBe("Right");
    const r = validateEvictionTarget({ maxTokens: Number.NaN, minKeep: -1 });
    expect(r._tag === "Left" && r.left.problems.map((p) => p.message)).toEqual([
      "maxTokens: expected a finite number, got NaN",
      "minKeep: expected a non-negative integer, got -1",
    ]);
    expect(r._tag === "Left" && r.left).toMatchObject({ _tag: "InvalidOptions", subject: "eviction target" });
    const typo = validateEvictionTarget({ maxTokens: 1, minKep: 1 });
    expect(typo._tag === "Left" && typo.left.problems.map((p) => p.message)).toEqual([
      "minKep: unknown field (did you mean minKeep?)",
    ]);
    expect(validateEvictionTarget({})._tag).toBe("Left");
  });

  it("exposes codecs whose is() agrees with validate()", () => {
    expect(SegmentCodec.is({ id: "a", content: "" })).toBe(true);
    expect(SegmentCodec.is({ id: "", content: "" })).toBe(false);
    expect(
      SegmentsCodec.is([
        { id: "a", content: "" },
        { id: "a", content: "" },
      ]),
    ).toBe(false);
    expect(ImportanceOptionsCodec.is({ costWeight: 0 })).toBe(true);
    expect(EvictionTargetCodec.is({ maxTokens: 1, extra: 1 })).toBe(false);
  });
});

describe("boundary robustness", () => {
  it("an array with holes is Left, one problem per hole", () => {
    const r = ensureSegmentsValid(new Array(3));
    expect(r._tag).toBe("Left");
    if (r._tag === "Left") {
      expect(r.left._tag).toBe("InvalidInput");
      expect(r.left.problems.map((p) => p.message)).toEqual([
        "[0]: expected a segment object, got undefined",
        "[1]: expected a segment object, got undefined",
        "[2]: expected a segment object, got undefined",
      ]);
    }
  });

  it("getters that throw are Left, never a throw", () => {
    const trap = Object.defineProperty({ id: "a" }, "content", {
      enumerable: true,
      get(): string {
        throw new Error("getter");
      },
    });
    const r = ensureSegmentsValid([trap]);
    expect(r._tag === "Left" && r.left.problems.map((p) => p.message)).toEqual([
      "[0].content: reading the field threw (getter)",
    ]);
    const opts = Object.defineProperty({}, "costWeight", {
      enumerable: true,
      get(): number {
        throw new Error("opts");
      },
    });
    const o = validateImportanceOptions(opts);
    expect(o._tag === "Left" && o.left).toMatchObject({ _tag: "InvalidOptions", subject: "importance options" });
    const proxy = new Proxy([], {
      get(): never {
        throw new Error("proxy");
      },
    });
    expect(() => ensureSegmentsValid(proxy)).not.toThrow();
    expect(ensureSegmentsValid(proxy)._tag).toBe("Left");
  });

  it("2e5 invalid segments report at most 100 problems plus a count of the rest", () => {
    const n = 200_000;
    const bad = Array.from({ length: n }, (_, i) => ({ id: `s${i}`, content: "", tokenCost: -1 }));
    const r = ensureSegmentsValid(bad);
    expect(r._tag).toBe("Left");
    if (r._tag === "Left") {
      expect(r.left.problems.length).toBe(100);
      expect(r.left.problems.length + r.left.more).toBe(n);
      expect(r.left.more).toBe(n - 100);
      expect(r.left.message).toMatch(/… and \d+ more$/);
    }
  });
});
