// A manager's resolved options are valid manager options again: adapters derive managers with
// another preserveLast from them (same counter, index and namespace), with or without a policy.
import { afterAll, describe, expect, it } from "vitest";
import { tiktokenCounter } from "@cc/tokens";
import { createContextManager } from "../src/index.js";

const counter = tiktokenCounter();
afterAll(() => counter.dispose());

describe("manager.options round-trips through createContextManager", () => {
  it("without a policy", () => {
    const m = createContextManager({ maxTokens: 4000, counter, namespace: "run-1" });
    const derived = createContextManager({ ...m.options, preserveLast: 2 });
    expect(derived.options.preserveLast).toBe(2);
    expect(derived.options.index).toBe(m.options.index);
    expect(derived.options.namespace).toBe("run-1");
  });

  it.each([
    ["cost", { kind: "cost", prices: "anthropic/claude-sonnet-4" }],
    ["hermes", { kind: "hermes" }],
    ["threshold", { kind: "threshold" }],
  ] as const)("with the %s policy: options.policy is the policy as given", (_name, policy) => {
    const m = createContextManager({ maxTokens: 4000, counter, policy });
    expect(m.options.policy).toEqual(policy);
    const derived = createContextManager({ ...m.options, preserveLast: 2 });
    expect(derived.options.policy).toEqual(policy);
    expect(derived.options.preserveLast).toBe(2);
  });
});
