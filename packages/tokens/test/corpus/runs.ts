import { runsFor } from "../../../../.ci/support/runs.js";
/** fast-check run counts: at least 1000 in CI, fewer locally. */
export const numRuns: number = runsFor(200, 1000);
