/** fast-check run counts: at least 1000 in CI, fewer locally. */
export const numRuns: number = process.env["CI"] ? 1000 : 200;
