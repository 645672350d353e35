/**
 * What the tests and benchmarks reach inside @cc/cli: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/cli/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/cli
 */
export { parseJson, firstJsonErrorOffset } from "../../../packages/cli/src/formats/json.js";
export { parsePythonLiteral } from "../../../packages/cli/src/formats/python-literal.js";
