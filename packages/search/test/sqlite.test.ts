import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { openSqliteIndex } from "../src/sqlite.js";
import { indexContract, right } from "./support/contract.js";

const dir = mkdtempSync(join(tmpdir(), "cc-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

indexContract("sqlite in memory", async () => right(await openSqliteIndex()()));
indexContract("sqlite file (WAL)", async () =>
  right(await openSqliteIndex({ path: join(dir, `contract-${n++}.db`) })()),
);
