import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { corpusDir, corpusPath, DATA_DIR_VARIABLE, dataDir, dataPath } from "./data.js";

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

describe("the repository's test corpus", () => {
  it("holds the SWE-agent trajectories byte for byte as its README lists them, with their licence", () => {
    const dir = corpusPath("swe-agent-trajectories");
    expect(dir).toBe(join(corpusDir, "swe-agent-trajectories"));
    const listed = [
      ...readFileSync(join(corpusDir, "README.md"), "utf8").matchAll(/^([0-9a-f]{64}) {2}(\S+\.traj)$/gm),
    ].map((m) => [m[2]!, m[1]!] as const);
    const present = readdirSync(dir)
      .filter((f) => f.endsWith(".traj"))
      .sort();
    expect(listed.map(([f]) => f).sort()).toEqual(present);
    expect(present.length).toBeGreaterThan(0);
    for (const [file, sum] of listed)
      expect(
        createHash("sha256")
          .update(readFileSync(join(dir, file)))
          .digest("hex"),
      ).toBe(sum);
    expect(readFileSync(join(dir, "LICENSE-SWE-agent"), "utf8")).toContain("MIT License");
  });

  it("a missing corpus folder fails with one line", () => {
    expect(() => corpusPath("no-such-corpus")).toThrow(/^test corpus missing: .*no-such-corpus does not exist/);
  });
});
