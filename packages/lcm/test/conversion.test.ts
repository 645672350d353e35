import * as E from "fp-ts/lib/Either.js";
import * as TE from "fp-ts/lib/TaskEither.js";
import { CcError } from "@cc/validate";
import { describe, expect, it } from "vitest";
import { cheapestModel, chooseCompactionModel } from "../src/model-choice.js";
import { decodeCompactOptions, defaultCompactOptions } from "../src/options.js";
import { createLcmCompactor, type LcmCompactorOptions } from "../src/compactor.js";
import type { Provider } from "@cc/messages";
import { serialiseTranscript } from "../src/transcript.js";
import { call, tool, u } from "../../messages/test/support/conversation.js";

describe("serialiseTranscript", () => {
  it("labels roles, shows calls with arguments and results with their call id", () => {
    expect(serialiseTranscript([u("fix it"), call("c1"), tool("c1", "ok")])).toBe(
      '[user]\nfix it\n\n[assistant]\n→ call bash #c1: {"command":"ls c1"}\n\n[tool result bash #c1]\nok',
    );
  });
  it("clips messages 6000+1500, tool results 4000+1500, arguments 1200, surrogate-safe", () => {
    const big = "😀".repeat(5000);
    const t = serialiseTranscript([
      u(big),
      tool("c", big),
      { role: "assistant", content: "", toolCalls: [{ id: "c", name: "w", arguments: "x".repeat(5000) }] },
    ]);
    expect(t).toMatch(/\[… 2500 chars omitted …\]/);
    expect(t).toMatch(/\[… 4500 chars omitted …\]/);
    expect(t).toMatch(/\[… 3800 chars omitted …\]/);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(t)).toBe(false);
  });
});

describe("options", () => {
  it("defaults: preserveLast 20, soft 0.5, hard 0.95", () => {
    expect(defaultCompactOptions()).toMatchObject({ preserveLast: 20, softThreshold: 0.5, hardThreshold: 0.95 });
    expect(decodeCompactOptions({})).toEqual(E.right(defaultCompactOptions()));
  });
  it("rejects soft ≥ hard, thresholds outside (0,1], negative/NaN/huge counts, non-objects", () => {
    const bad = [
      { softThreshold: 0.9, hardThreshold: 0.9 },
      { hardThreshold: 1.5 },
      { softThreshold: 0 },
      { preserveLast: -1 },
      { maxTokens: Number.NaN },
      { maxTokens: 2 ** 60 },
      { preserveLast: 1.5 },
      null,
      [],
      "x",
    ];
    for (const b of bad) expect(E.isLeft(decodeCompactOptions(b))).toBe(true);
    const r = decodeCompactOptions({ preserveLast: -1, hardThreshold: 2 });
    expect(E.isLeft(r) && r.left.problems.map((p) => p.message)).toEqual([
      "preserveLast: expected a non-negative integer, got -1",
      "hardThreshold: expected a number in (0, 1], got 2",
    ]);
    expect(E.isLeft(r) && r.left).toMatchObject({ _tag: "InvalidOptions", subject: "compact options", more: 0 });
  });
  it("is closed: an unknown field fails with a did-you-mean instead of being ignored", () => {
    const r = decodeCompactOptions({ maxTokns: 5 });
    expect(E.isLeft(r) && r.left.problems.map((p) => p.message)).toEqual([
      "maxTokns: unknown field (did you mean maxTokens?)",
    ]);
    expect(E.isLeft(r) && r.left.message).toBe(
      "invalid compact options: maxTokns: unknown field (did you mean maxTokens?)",
    );
  });
  it("rejects NaN, ±Infinity and out-of-range values field by field", () => {
    for (const [field, value] of [
      ["maxTokens", Number.NaN],
      ["maxTokens", Number.POSITIVE_INFINITY],
      ["maxTokens", 0],
      ["preserveLast", Number.NEGATIVE_INFINITY],
      ["softThreshold", Number.NaN],
      ["hardThreshold", Number.POSITIVE_INFINITY],
      ["hardThreshold", -0.5],
      ["strength", "strongest"],
      ["model", 3],
    ] as const) {
      const r = decodeCompactOptions({ [field]: value });
      expect(E.isLeft(r) && r.left.problems.map((p) => p.path)).toEqual([field]);
    }
    const soft = decodeCompactOptions({ softThreshold: 0.9, hardThreshold: 0.8 });
    expect(E.isLeft(soft) && soft.left.problems).toEqual([
      {
        path: "softThreshold",
        field: "softThreshold",
        message: "softThreshold (0.9) must be below hardThreshold (0.8)",
      },
    ]);
  });
  it("compactor options are closed too: a bad one throws the one CcError at construction", () => {
    const typo = (): unknown => createLcmCompactor({ timeoutMS: 5 } as unknown as LcmCompactorOptions);
    expect(typo).toThrow(CcError);
    expect(typo).toThrow(/timeoutMS: unknown field \(did you mean timeoutMs\?\)/);
    expect(thrown(typo)).toMatchObject({
      _tag: "InvalidOptions",
      subject: "compactor options",
      problems: [{ path: "timeoutMS" }],
    });
    for (const bad of [
      { timeoutMs: Number.NaN },
      { timeoutMs: Number.POSITIVE_INFINITY },
      { temperature: -1 },
      { temperature: Number.NaN },
      { now: 5 },
      { alertSink: {} },
    ]) {
      expect(() => createLcmCompactor(bad as unknown as LcmCompactorOptions)).toThrow(CcError);
    }
    expect(
      E.isRight(createLcmCompactor({ timeoutMs: 1000, temperature: 0, sessionId: "" }).shouldCompact([u("hi")])),
    ).toBe(true);
  });
});

/** What `make` throws. */
function thrown(make: () => unknown): unknown {
  try {
    make();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("model choice", () => {
  const models = [
    { id: "big", outputCostPerMTok: 15, strength: "very_high" as const },
    { id: "mid", outputCostPerMTok: 2, strength: "average" as const },
    { id: "tiny", outputCostPerMTok: 0.5, strength: "very_low" as const },
    { id: "free?", strength: "low" as const },
  ];
  it("picks the cheapest priced model, honouring a minimum strength", () => {
    expect(cheapestModel(models)).toEqual({ _tag: "Some", value: models[2] });
    expect(cheapestModel(models, "average")).toEqual({ _tag: "Some", value: models[1] });
    expect(cheapestModel([{ id: "nan", outputCostPerMTok: Number.NaN }])._tag).toBe("None");
  });
  it("prefers compactionModel, else lists, else a typed error", async () => {
    const p: Provider = {
      name: "p",
      complete: () => TE.left({ _tag: "ProviderAborted" }),
      listModels: () => TE.right([{ id: "unpriced" }]),
    };
    expect(await chooseCompactionModel(p, "set")()).toEqual(E.right("set"));
    const r = await chooseCompactionModel(p, "")();
    expect(E.isLeft(r) && r.left._tag).toBe("NoCompactionModel");
  });
});
