// Locates the SWE-agent trajectories of the repository's test corpus (.ci/corpus, MIT, provenance beside them).
import { readdirSync } from "node:fs";
import { corpusPath } from "../../../.ci/data.js";
import { runsFor } from "../../../.ci/support/runs.js";

/** Absolute path of the corpus trajectories folder, with a trailing slash (`.ci/corpus/swe-agent-trajectories/`). */
export const trajectoriesDir = `${corpusPath("swe-agent-trajectories")}/`;

/** Every `.traj` file in the corpus folder, sorted. */
export const trajectoryFiles: readonly string[] = readdirSync(trajectoriesDir)
  .filter((f) => f.endsWith(".traj"))
  .sort();

/** Runs assertions with at least 1000 fast-check runs in CI. */
export const numRuns = runsFor(200, 1000);
