/** Loads the message texts of the shared SWE-agent trajectories (read in place, never copied). */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, resolved from this file. */
const repoRoot: string = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * The shared data directory: `CC_DATA_DIR` (absolute, or relative to the repository root), else
 * `../shared/data` relative to the repository root.
 */
export function dataDir(): string {
  const configured = process.env["CC_DATA_DIR"];
  const dir = configured === undefined || configured === "" ? join(repoRoot, "..", "shared", "data") : isAbsolute(configured) ? configured : resolve(repoRoot, configured);
  if (!existsSync(dir)) throw new Error(`shared data directory ${dir} not found: set CC_DATA_DIR to the directory holding swe-agent-trajectories/`);
  return dir;
}

/** Directory of the shared trajectories (`<data dir>/swe-agent-trajectories/`). */
export function trajectoryDir(): string {
  return join(dataDir(), "swe-agent-trajectories") + "/";
}

/** One message text with where it came from. */
export interface TrajectoryText {
  readonly file: string;
  readonly index: number;
  readonly role: string;
  readonly text: string;
}

function isRecord(u: unknown): u is Record<string, unknown> {
  return typeof u === "object" && u !== null;
}

/** Every string `content` of every `history` message of every `.traj` file, in file order. */
export function trajectoryTexts(): readonly TrajectoryText[] {
  const out: TrajectoryText[] = [];
  const dir = trajectoryDir();
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".traj")).sort()) {
    const doc: unknown = JSON.parse(readFileSync(dir + file, "utf8"));
    const history = isRecord(doc) && Array.isArray(doc["history"]) ? (doc["history"] as unknown[]) : [];
    history.forEach((m, index) => {
      if (!isRecord(m)) return;
      const content = m["content"];
      const role = typeof m["role"] === "string" ? m["role"] : "?";
      if (typeof content === "string") out.push({ file, index, role, text: content });
    });
  }
  return out;
}
