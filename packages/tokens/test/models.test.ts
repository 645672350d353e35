import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { counterForModel, encodingForModel } from "@cc/tokens";
import { numRuns } from "./corpus/runs.js";

describe("encodingForModel", () => {
  it.each([
    ["gpt-4o", "o200k_base"],
    ["gpt-4o-mini-2024-07-18", "o200k_base"],
    ["gpt-4.1-nano", "o200k_base"],
    ["gpt-5", "o200k_base"],
    ["o1-preview", "o200k_base"],
    ["o3-mini", "o200k_base"],
    ["o4-mini", "o200k_base"],
    ["openai/GPT-4o", "o200k_base"],
    ["gpt-4", "cl100k_base"],
    ["gpt-4-0613", "cl100k_base"],
    ["gpt-4-turbo", "cl100k_base"],
    ["gpt-3.5-turbo", "cl100k_base"],
    ["gpt-35-turbo", "cl100k_base"],
    ["text-embedding-3-small", "cl100k_base"],
    ["claude-3-5-sonnet", "o200k_base"],
    ["", "o200k_base"],
    ["\ud800😀中", "o200k_base"],
  ])("%s → %s", (model, encoding) => {
    expect(encodingForModel(model)).toBe(encoding);
  });

  it("never throws and always answers a known encoding", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), (model) => {
        expect(["o200k_base", "cl100k_base"]).toContain(encodingForModel(model));
      }),
      { numRuns },
    );
  });

  it("counterForModel counts with the model's encoding", () => {
    const counter = counterForModel("gpt-4");
    expect(counter.encoding).toBe("cl100k_base");
    expect(counter.count("hello world")).toBe(2);
    counter.dispose();
  });
});
