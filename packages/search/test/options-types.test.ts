// Each options type is the type of the codec that decodes it: a field added to one and not the
// other fails to compile here (.ci/tsconfig.check.json type-checks the tests).
import type * as t from "io-ts";
import { describe, expect, it } from "vitest";
import type { MemoryIndexOptions, PostgresIndexOptions, SearchOptions, SqliteIndexOptions } from "@cc/search";
import { assertEquals, type Equals } from "../../../.ci/support/type-equals.js";
import type { SearchOptionsCodec } from "../src/contract.js";
import type { MemoryIndexOptionsCodec } from "../src/memory.js";
import type { PostgresIndexOptionsCodec } from "../src/postgres.js";
import type { SqliteIndexOptionsCodec } from "../src/sqlite.js";

describe("options types equal their codecs", () => {
  it("SearchOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof SearchOptionsCodec>, SearchOptions>>(true)).toBe(true);
  });
  it("MemoryIndexOptions, SqliteIndexOptions and PostgresIndexOptions", () => {
    expect(assertEquals<Equals<t.TypeOf<typeof MemoryIndexOptionsCodec>, MemoryIndexOptions>>(true)).toBe(true);
    expect(assertEquals<Equals<t.TypeOf<typeof SqliteIndexOptionsCodec>, SqliteIndexOptions>>(true)).toBe(true);
    expect(assertEquals<Equals<t.TypeOf<typeof PostgresIndexOptionsCodec>, PostgresIndexOptions>>(true)).toBe(true);
  });
});
