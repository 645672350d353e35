// Runs the README's example verbatim (between the markers) and checks what it prints.
import { describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entry, memoryIndex, openSqliteIndex, type SnapshotEvent } from "@cc/search";

describe("README example", () => {
  it("writes, searches and expands", async () => {
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    // README-EXAMPLE-START
    const log = console.log;

    const index = memoryIndex();
    await index.write([
      entry({
        id: "t1",
        namespace: "run-1",
        kind: "tool_result",
        summary: "pytest: KeyError 'header' in src/reader.py",
        content: "Traceback …\nKeyError: 'header'",
      }),
      entry({ id: "f1", namespace: "run-1", kind: "file", summary: "read src/app.py", content: "def main(): ..." }),
    ])();
    const hits = await index.search("KeyError reader.py", { k: 5, namespace: "run-1" })();
    if (hits._tag === "Right") for (const hit of hits.right) log(hit.id, hit.kind);
    const back = await index.expand("t1", "run-1")();
    if (back._tag === "Right") log(back.right?.content);
    // README-EXAMPLE-END
    expect(spy.mock.calls).toEqual([["t1", "tool_result"], ["f1", "file"], ["Traceback …\nKeyError: 'header'"]]);
    spy.mockRestore();
  });

  it("a fresh worker restores its namespace from the snapshot kept in the database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-readme-snap-"));
    const file = join(dir, "index.db");
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      // README-SNAPSHOT-START
      const seen: string[] = [];
      const options = {
        path: file,
        snapshots: { store: "database" as const, onEvent: (e: SnapshotEvent) => seen.push(`${e.type} ${e.namespace}`) },
      };
      const first = await openSqliteIndex(options)();
      if (first._tag === "Right") {
        await first.right.write([
          entry({ id: "t1", namespace: "run-1", summary: "pytest: KeyError 'header'", content: "Traceback …" }),
        ])();
        await first.right.search("KeyError", { namespace: "run-1" })(); // loads run-1 from its rows, then writes its snapshot
        await first.right.close()(); // waits for the snapshot write
      }
      const restarted = await openSqliteIndex(options)(); // another worker: no snapshot directory anywhere
      if (restarted._tag === "Right") {
        const hits = await restarted.right.search("KeyError", { namespace: "run-1" })(); // restores run-1 from the snapshot in the database
        if (hits._tag === "Right") seen.push(hits.right.map((h) => h.id).join(","));
        await restarted.right.close()();
      }
      console.log(seen.join("\n"));
      // README-SNAPSHOT-END
      expect(spy.mock.calls).toEqual([["missing run-1\nwritten run-1\nrestored run-1\nt1"]]);
    } finally {
      spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
