// Locates the shared SWE-agent trajectories (read in place, never copied into the repository).
import { readdirSync } from "node:fs";
import { dataPath } from "../../../.ci/data.js";

/** Absolute path of the shared trajectories folder, with a trailing slash (`$CC_DATA_DIR/swe-agent-trajectories/`). */
export const trajectoriesDir = `${dataPath("swe-agent-trajectories")}/`;

/** Every `.traj` file in the shared folder, sorted. */
export const trajectoryFiles: readonly string[] = readdirSync(trajectoriesDir)
  .filter((f) => f.endsWith(".traj"))
  .sort();

/** Runs assertions with at least 1000 fast-check runs in CI. */
export const numRuns = process.env["CI"] !== undefined ? 1000 : 200;
