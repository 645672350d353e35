// The index names @cc/hierarchical exported before @cc/search existed are still there, deprecated,
// and are the very values @cc/search exports.
import { describe, expect, it } from "vitest";
import * as hierarchical from "@cc/hierarchical";
import * as search from "@cc/search";

describe("deprecated re-exports of @cc/search", () => {
  it("entry, memoryIndex, openSqliteIndex, openPostgresIndex and pgClient are @cc/search's", () => {
    expect(hierarchical.entry).toBe(search.entry);
    expect(hierarchical.memoryIndex).toBe(search.memoryIndex);
    expect(hierarchical.openSqliteIndex).toBe(search.openSqliteIndex);
    expect(hierarchical.openPostgresIndex).toBe(search.openPostgresIndex);
    expect(hierarchical.pgClient).toBe(search.pgClient);
  });
});
