import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DATA_DIR_VARIABLE, dataDir, dataPath } from "./data.js";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the data directory setting", () => {
  it("defaults to ../shared/data next to the repository", () => {
    expect(dataDir({})).toBe(resolve(root, "..", "shared", "data"));
    expect(dataDir({ [DATA_DIR_VARIABLE]: "" })).toBe(resolve(root, "..", "shared", "data"));
  });

  it("CC_DATA_DIR overrides it; a relative value resolves against the repository root", () => {
    const dir = mkdtempSync(join(tmpdir(), "cc-data-"));
    mkdirSync(join(dir, "swe-agent-trajectories"));
    expect(dataPath("swe-agent-trajectories", { [DATA_DIR_VARIABLE]: dir })).toBe(join(dir, "swe-agent-trajectories"));
    expect(dataDir({ [DATA_DIR_VARIABLE]: "data" })).toBe(resolve(root, "data"));
  });

  it("a missing directory fails with one line that names CC_DATA_DIR", () => {
    const dir = join(mkdtempSync(join(tmpdir(), "cc-data-")), "nowhere");
    let message = "";
    try {
      dataPath("swe-agent-trajectories", { [DATA_DIR_VARIABLE]: dir });
    } catch (e: unknown) {
      message = e instanceof Error ? e.message : String(e);
    }
    expect(message).toContain(`${DATA_DIR_VARIABLE}=${dir}`);
    expect(message).toContain(join(dir, "swe-agent-trajectories"));
    expect(message).not.toContain("\n");
    expect(() => dataPath("no-such-corpus", {})).toThrow(/CC_DATA_DIR is unset, default/);
  });
});
