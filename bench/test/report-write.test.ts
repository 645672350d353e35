import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as E from "fp-ts/lib/Either.js";
import { afterEach, describe, expect, it } from "vitest";
import { writeReport } from "../report/write.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A results file with no n-series (like cost.json): the report draws no chart of it. */
const noSeries = (name: string): string =>
  JSON.stringify({
    name,
    quick: false,
    date: "2026-01-01T00:00:00.000Z",
    node: "v20",
    platform: "linux-x64",
    data: { rows: [{ policy: "a", cost: 1 }] },
  });

describe("writeReport and charts it does not own", () => {
  it("keeps a chart a benchmark drew itself, removes its own stale throughput chart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-report-"));
    dirs.push(dir);
    writeFileSync(join(dir, "cost.json"), noSeries("cost"));
    writeFileSync(join(dir, "cost.svg"), "<svg><title>input cost by policy</title></svg>");
    writeFileSync(join(dir, "old.json"), noSeries("old"));
    writeFileSync(join(dir, "old.svg"), "<svg><title>old: throughput against n (log–log)</title></svg>");
    const r = await writeReport(dir)();
    expect(E.isRight(r)).toBe(true);
    expect(readFileSync(join(dir, "cost.svg"), "utf8")).toContain("input cost by policy");
    expect(existsSync(join(dir, "old.svg"))).toBe(false);
  });
});
