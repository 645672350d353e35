// The fleet at its quick size: 8 worker processes on one throwaway PostgreSQL cluster, each with
// its own two namespaces of one shared table, writing and searching while 4 of them are SIGKILLed
// mid-work (and started again) and the server crashes and restarts once. Nothing acknowledged may
// be lost, no search may return another namespace's entry, and no worker may die of the restart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entry, memoryIndex } from "@cc/search";
import { afterAll, describe, expect, it } from "vitest";
import { runFleet, verifyAcks, type Searcher } from "../fleet/fleet.js";
import { entryTerm, parseAcks, type Ack } from "../fleet/protocol.js";

const dir = mkdtempSync(join(tmpdir(), "cc-fleet-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the verification itself", () => {
  // Entries of two namespaces in a real index; the same checks the fleet run uses must catch an
  // entry acknowledged in one namespace but stored in another, a missing entry, and a search that
  // ignores its namespace.
  const namespaces = ["a", "b"];
  const stored: Ack[] = Array.from({ length: 40 }, (_, i) => ({
    namespace: namespaces[i % 2]!,
    id: entryTerm(0, 0, i, 0),
    term: entryTerm(0, 0, i, 0),
  }));
  const index = memoryIndex();
  const ready = index.write(
    stored.map((a) =>
      entry({ id: a.id, namespace: a.namespace, summary: `fleet entry ${a.term}`, content: `fleet ${a.term}` }),
    ),
  )();
  const searcher =
    (ignoreNamespace: boolean): Searcher =>
    async (query, namespace) => {
      await ready;
      const r = await index.search(query, {
        k: 1000,
        ...(namespace === undefined || ignoreNamespace ? {} : { namespace }),
      })();
      if (r._tag === "Left") throw new Error(JSON.stringify(r.left));
      return r.right;
    };
  const other = (ns: string): string => (ns === "a" ? "b" : "a");

  it("passes the entries as stored", async () => {
    expect(await verifyAcks(stored, searcher(false), other)).toMatchObject({ lost: [], crossHits: 0 });
  });
  it("catches an entry acknowledged in the wrong namespace, a missing one, and a search that ignores its namespace", async () => {
    const wrong = stored.map((a, i) => (i === 3 ? { ...a, namespace: other(a.namespace) } : a));
    const r = await verifyAcks(wrong, searcher(false), other);
    expect(r.lost.map((a) => a.id)).toEqual([stored[3]!.id]);
    expect(r.crossHits).toBeGreaterThan(0);
    const missing = [...stored, { namespace: "a", id: "nothere", term: "fqnothere" }];
    expect((await verifyAcks(missing, searcher(false), other)).lost.map((a) => a.id)).toEqual(["nothere"]);
    expect((await verifyAcks(stored, searcher(true), other)).crossHits).toBe(stored.length);
  });
  it("reads only complete acknowledgement lines", () => {
    expect(parseAcks("a\tx\tx\nb\ty\ty\nc\tz")).toEqual([
      { namespace: "a", id: "x", term: "x" },
      { namespace: "b", id: "y", term: "y" },
    ]);
  });
});

describe("a fleet of 8 workers under SIGKILL and a PostgreSQL restart", () => {
  it("loses nothing acknowledged, never answers across namespaces, and carries on after the restart", async () => {
    const report = await runFleet({
      dir: join(dir, "run"),
      port: 59000 + Math.floor(Math.random() * 900),
      workers: 8,
      namespacesPerWorker: 2,
      durationMs: 20_000,
      batch: 5,
      pauseMs: 40,
      kills: 4,
      restartAt: 0.45,
      downSeconds: 1.5,
      seed: Date.now() % 1_000_000,
    });
    const summary = JSON.stringify({ ...report, timeline: undefined, perWorker: undefined });
    expect(report.crashes, summary).toEqual([]);
    expect(report.hung, summary).toBe(0);
    expect(report.kills, summary).toBeGreaterThanOrEqual(3);
    expect(report.serverRestarts, summary).toBe(1);
    expect(report.acknowledged, summary).toBeGreaterThan(100);
    expect(report.lost, JSON.stringify(report.lostSample)).toBe(0);
    expect(report.crossHitsDuringRun, summary).toBe(0);
    expect(report.crossHitsAtEnd, summary).toBe(0);
    expect(report.ownWriteMisses, summary).toBe(0);
    // Everything acknowledged is stored; an unacknowledged write may or may not be.
    expect(report.stored, summary).toBeGreaterThanOrEqual(report.acknowledged);
    // The restart was seen (typed errors), and every worker wrote after it.
    expect(Object.keys(report.errors).length, summary).toBeGreaterThan(0);
    expect(report.afterRestartSearchP50Ms, summary).toBeGreaterThan(0);
    expect(
      report.perWorker.map((w) => w.writesAfterRestart > 0),
      summary,
    ).toEqual(report.perWorker.map(() => true));
  });
});
