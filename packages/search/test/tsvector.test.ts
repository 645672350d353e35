// How the PostgreSQL index's postings cache reads a row's tsvector: the server turns it into a
// terms column (TSV_TERMS), the same form SQLite stores and the cache scans in one pass.
import * as fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TSV_TERMS } from "../src/postgres-cache.js";
import { indexedTerms, tsvectorLiteral } from "../src/query.js";
import { termsColumn } from "../src/sqlite-schema.js";
import type { SqlClient } from "../src/sql.js";
import { runs } from "./support/contract.js";
import { testDatabase, type TestDatabase } from "./support/postgres.js";

let db: TestDatabase;
let client: SqlClient;
beforeAll(async () => {
  db = await testDatabase();
  client = db.client();
});
afterAll(async () => {
  await db.drop();
});

/** TSV_TERMS of `tsv`, evaluated by the server. */
async function termsOf(tsv: string): Promise<string> {
  const r = await client.query<{ terms: string }>(
    `SELECT ${TSV_TERMS} AS terms FROM (SELECT $1::tsvector AS tsv) AS t`,
    [tsv],
  );
  return r.rows[0]!.terms;
}

describe("TSV_TERMS", () => {
  it("splits lexemes by weight: A is the summary, any other (D, the default, B, C) the content, both when both", async () => {
    expect(await termsOf("'app':2A 'main':1A,4 'py':3")).toBe("app main\tmain py");
    expect(await termsOf("'x':1 'y':5D")).toBe("\tx y");
    expect(await termsOf("'b':1B 'c':2C")).toBe("\tb c");
    expect(await termsOf("")).toBe("\t");
  });

  it("gives lexemes unescaped (a quote, a backslash)", async () => {
    expect(await termsOf("'it''s':1A 'a\\\\b':2")).toBe("it's\ta\\b");
  });

  it("property: reads what the index writes (summary with weight A, then content) as SQLite's terms column of the same terms", async () => {
    const text = fc.array(fc.stringMatching(/^[a-z0-9éü数'\\]{1,12}$/), { maxLength: 30 }).map((ws) => ws.join(" "));
    await fc.assert(
      fc.asyncProperty(text, text, async (summary, content) => {
        const s = indexedTerms(summary);
        const c = indexedTerms(content);
        // The write's tsvector: the summary's lexemes with weight A, concatenated with the content's.
        const r = await client.query<{ terms: string }>(
          `SELECT ${TSV_TERMS} AS terms FROM (SELECT $1::tsvector || $2::tsvector AS tsv) AS t`,
          [tsvectorLiteral(s, "A"), tsvectorLiteral(c)],
        );
        // A tsvector keeps its lexemes sorted (bytewise under the C collation of tsvector order).
        const sorted = (ts: readonly string[]): string[] =>
          [...ts].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) || a.length - b.length);
        expect(r.rows[0]!.terms).toBe(termsColumn(sorted(s), sorted(c)));
      }),
      { numRuns: runs(100) },
    );
  });
});
