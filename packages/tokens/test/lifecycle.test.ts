import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { bpeEngine, liveEncoders, loadRanks } from "@cc/test-support/tokens";
import { tiktokenCounter } from "@cc/tokens";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("tiktoken encoder lifecycle", () => {
  it("creates nothing until the first count, shares one encoder per encoding, frees it with the last counter", () => {
    const before = liveEncoders().filter((e) => e === "cl100k_base").length;
    expect(before).toBe(0);
    const a = tiktokenCounter({ encoding: "cl100k_base" });
    const b = tiktokenCounter({ encoding: "cl100k_base" });
    expect(liveEncoders()).not.toContain("cl100k_base");
    expect(a.count("hello")).toBe(1);
    expect(b.count("hello")).toBe(1);
    expect(liveEncoders().filter((e) => e === "cl100k_base")).toEqual(["cl100k_base"]);
    a.dispose();
    expect(liveEncoders()).toContain("cl100k_base");
    a.dispose(); // idempotent: does not drop b's reference
    expect(liveEncoders()).toContain("cl100k_base");
    b.dispose();
    expect(liveEncoders()).not.toContain("cl100k_base");
  });

  it("throws a clear programming error when used after dispose", () => {
    const c = tiktokenCounter();
    c.dispose();
    expect(() => c.count("x")).toThrow(/after dispose/);
  });

  it("lets go of the rank tables once its own tables are built (tens of MB of maps)", async () => {
    const open = () => {
      const table = loadRanks("cl100k_base"); // no reference to it outlives this function
      return { engine: bpeEngine("cl100k_base", table), held: new WeakRef(table) };
    };
    const { engine, held } = open();
    expect(engine.count("hello world")).toBe(2);
    await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds its target to the end of the job
    gc();
    expect(held.deref()).toBeUndefined();
    expect(engine.count("hello world")).toBe(2);
  });
});
