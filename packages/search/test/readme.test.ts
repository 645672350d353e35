// Runs the README's example verbatim (between the markers) and checks what it prints.
import { describe, expect, it, vi } from "vitest";
import { entry, memoryIndex } from "@cc/search";

describe("README example", () => {
  it("writes, searches and expands", async () => {
    const spy = vi.spyOn(console, "log").mockImplementation(() => undefined);
    // README-EXAMPLE-START
    const log = console.log;

    const index = memoryIndex();
    await index.write([
      entry({ id: "t1", namespace: "run-1", kind: "tool_result", summary: "pytest: KeyError 'header' in src/reader.py", content: "Traceback …\nKeyError: 'header'" }),
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
});
