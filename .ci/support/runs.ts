// How many cases a property test runs: `local` on a developer machine, `ci` under CI (the CI
// environment variable set), so CI searches harder than a quick local run. The one definition.

/**
 * Property-test case count: `local` locally, `ci` when the `CI` environment variable is set.
 *
 * @example fc.assert(property, { numRuns: runsFor(200, 1000) })
 */
export const runsFor = (local: number, ci: number): number => (process.env["CI"] === undefined ? local : ci);
