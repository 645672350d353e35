// Pins each package's public names: a change to an export list fails here until the list in
// .ci/public-api.json is updated on purpose (`npx tsx .ci/public-api.ts --write`).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_PUBLIC_NAMES, PINNED, publicApi, README, table, withReadmeTable } from "./public-api.js";

const root = join(README, "..");

const apis = publicApi();
const pinned = JSON.parse(readFileSync(PINNED, "utf8")) as Record<string, readonly string[]>;

describe("public API", () => {
  it("the README's table is the measured one", () => {
    const readme = readFileSync(README, "utf8");
    expect(withReadmeTable(readme, table(apis))).toBe(readme);
  });

  it("the READMEs' code shows only exported names: no call of an /internal or test-only building block, no import of an /internal entry", () => {
    const exported = new Set(apis.flatMap((a) => [...a.exports, ...a.compat]));
    const notForUsers = new Set(apis.flatMap((a) => a.internal).filter((n) => !exported.has(n)));
    const supportDir = join(root, ".ci", "support", "internals");
    for (const a of apis) {
      const file = join(supportDir, `${a.name.replace("@cc/", "")}.ts`);
      if (!existsSync(file)) continue;
      const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
      for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
        for (const n of m[1]!.split(",").map((s) => s.trim().replace(/^type\s+/, "")))
          if (n !== "" && !exported.has(n)) notForUsers.add(n);
      }
    }
    expect(notForUsers.size).toBeGreaterThan(100); // the check sees the building blocks it keeps out
    const readmes = [
      README,
      ...apis.map((a) => join(root, "packages", a.name.replace("@cc/", ""), "README.md")),
    ].filter((f) => existsSync(f));
    const found: string[] = [];
    for (const f of readmes) {
      const code = [...readFileSync(f, "utf8").matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!).join("\n");
      for (const m of code.matchAll(/(?<![.\w$])([A-Za-z_]\w*)\s*(?:<[^>()]*>)?\(/g))
        if (notForUsers.has(m[1]!)) found.push(`${f.slice(root.length)}: ${m[1]}(`);
      for (const m of code.matchAll(/@cc\/[a-z-]+\/internal\b/g)) found.push(`${f.slice(root.length)}: ${m[0]}`);
    }
    expect(found).toEqual([]);
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
