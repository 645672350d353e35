// `cc-compact` over a shared index file that already holds another original under the id of a
// unit it evicts: the run succeeds (exit 0), that unit is evicted under an alternative id the
// report names, and every other unit is written.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entry, openSqliteIndex } from "@cc/search";
import * as E from "fp-ts/lib/Either.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/command/exit-codes.js";
import { runCli } from "./run-cli.js";

let dir: string;
let chat: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cc-cli-ids-"));
  chat = join(dir, "chat.json");
  const messages = [{ role: "system", content: "You are a coding agent." }];
  for (let i = 0; i < 20; i++) {
    messages.push({
      role: "user",
      content: `Step ${i}: read src/module${i}.py ${"and explain the failing parser ".repeat(35)}`,
    });
    messages.push({
      role: "assistant",
      content: `Module ${i} raises KeyError in parse_${i}; ${"the header row is missing ".repeat(20)}`,
    });
  }
  writeFileSync(chat, JSON.stringify(messages));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noteIds = (stdout: string): string[] => {
  const out = JSON.parse(stdout) as { content: string }[];
  const note = out.find((m) => m.content.includes("Evicted to the journal"))?.content ?? "";
  return [...note.matchAll(/^- (\S+) \(/gm)].map((m) => m[1]!);
};

describe(
  "cc-compact with a shared --index holding another original under an evicted unit's id",
  { timeout: 180_000 },
  () => {
    it("exits 0, evicts that unit under its alternative id (named in the report) and writes the rest", async () => {
      const args = (index: string): string[] => [
        chat,
        "-s",
        "hierarchical",
        "-i",
        index,
        "-b",
        "3000",
        "-p",
        "2",
        "--force",
      ];
      const scratch = await runCli(args(join(dir, "scratch.db")));
      expect(scratch.code).toBe(ExitCode.ok);
      const ids = noteIds(scratch.stdout);
      // The note lists the newest entries in a quarter of its tokens (its fact line takes the rest).
      expect(ids.length).toBeGreaterThan(0);
      const taken = ids[0]!;

      const shared = join(dir, "shared.db");
      const opened = await openSqliteIndex({ path: shared })();
      if (E.isLeft(opened)) throw new Error(JSON.stringify(opened.left));
      expect(
        E.isRight(
          await opened.right.write([
            entry({ id: taken, summary: "another session's entry", content: "another original" }),
          ])(),
        ),
      ).toBe(true);
      await opened.right.close()();

      const run = await runCli(args(shared));
      expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: ExitCode.ok });
      expect(run.stderr).toContain(`${taken}~1`);
      expect(noteIds(run.stdout).sort()).toEqual(ids.map((id) => (id === taken ? `${id}~1` : id)).sort());
      const after = await openSqliteIndex({ path: shared })();
      if (E.isLeft(after)) throw new Error(JSON.stringify(after.left));
      expect(await after.right.expand(taken)()).toMatchObject(E.right({ content: "another original" }));
      const scratchIndex = await openSqliteIndex({ path: join(dir, "scratch.db") })();
      if (E.isLeft(scratchIndex)) throw new Error(JSON.stringify(scratchIndex.left));
      for (const id of ids) {
        const want = await scratchIndex.right.expand(id)();
        expect(await after.right.expand(id === taken ? `${id}~1` : id)()).toMatchObject(
          E.right({ content: E.isRight(want) ? want.right?.content : "?" }),
        );
      }
      await after.right.close()();
      await scratchIndex.right.close()();
    });
  },
);
