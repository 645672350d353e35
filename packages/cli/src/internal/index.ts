/**
 * Building blocks of @cc/cli shared with its tests and the benchmarks (the JSON and Python-literal
 * parsers the readers use). Not part of the public API: no stability promise.
 *
 * @module @cc/cli/internal
 */
export { parseJson, firstJsonErrorOffset } from "../formats/json.js";
export { parsePythonLiteral } from "../formats/python-literal.js";
