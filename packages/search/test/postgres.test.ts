import { afterAll, beforeAll } from "vitest";
import { openPostgresIndex } from "../src/postgres.js";
import { indexContract, right } from "./support/contract.js";
import { testDatabase } from "./support/postgres.js";
import type { TestDatabase } from "./support/postgres.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db.drop();
});
let n = 0;

indexContract("postgres", async () =>
  right(await openPostgresIndex({ connection: db.client(), table: `contract_${n++}` })()),
);
