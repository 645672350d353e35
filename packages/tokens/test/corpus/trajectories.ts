/** Loads the message texts of the SWE-agent trajectories in the repository's test corpus (.ci/corpus). */
import { readdirSync, readFileSync } from "node:fs";
import { corpusPath } from "../../../../.ci/data.js";

/** Directory of the corpus trajectories, with a trailing slash (`.ci/corpus/swe-agent-trajectories/`). */
export function trajectoryDir(): string {
  return `${corpusPath("swe-agent-trajectories")}/`;
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
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".traj"))
    .sort()) {
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
