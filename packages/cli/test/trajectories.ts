// Locates the shared SWE-agent trajectories (read in place, never copied into the repository).
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Absolute path of the shared trajectories folder (`../shared/data/…` from the repository root). */
export const trajectoriesDir = fileURLToPath(new URL("../../../../shared/data/swe-agent-trajectories/", import.meta.url));

/** Every `.traj` file in the shared folder, sorted. */
export const trajectoryFiles: readonly string[] = readdirSync(trajectoriesDir)
  .filter((f) => f.endsWith(".traj"))
  .sort();

/** Runs assertions with at least 1000 fast-check runs in CI. */
export const numRuns = process.env["CI"] !== undefined ? 1000 : 200;
