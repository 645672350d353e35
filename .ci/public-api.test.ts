// Pins each package's public names: a change to an export list fails here until the list in
// .ci/public-api.json is updated on purpose (`npx tsx .ci/public-api.ts --write`).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_PUBLIC_NAMES, PINNED, publicApi, README, table, withReadmeTable } from "./public-api.js";

const apis = publicApi();
const pinned = JSON.parse(readFileSync(PINNED, "utf8")) as Record<string, readonly string[]>;

describe("public API", () => {
  it("the README's table is the measured one", () => {
    const readme = readFileSync(README, "utf8");
    expect(withReadmeTable(readme, table(apis))).toBe(readme);
  });

  it("every package is pinned and no pinned package is gone", () => {
    expect(apis.map((a) => a.name).sort()).toEqual(Object.keys(pinned).sort());
  });
  for (const api of apis) {
    describe(api.name, () => {
      it("exports exactly the pinned names", () => {
        expect(api.exports).toEqual(pinned[api.name]);
      });
      it(`exports at most ${MAX_PUBLIC_NAMES} values`, () => {
        expect(api.values.length).toBeLessThanOrEqual(MAX_PUBLIC_NAMES);
      });
      it("names every type a public signature reaches (no hidden types)", () => {
        expect(api.hidden).toEqual([]);
      });
      it("documents every export", () => {
        expect(api.undocumented).toEqual([]);
      });
    });
  }
});
