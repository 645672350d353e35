/**
 * Building blocks of @cc/cli shared with its tests and the benchmarks (the JSON and Python-literal
 * parsers the readers use, the progress bar). Not part of the public API: no stability promise.
 *
 * @module @cc/cli/internal
 */
export { parseJson, lineColumn, firstJsonErrorOffset, type JsonSyntaxError } from "../formats/json.js";
export {
  inexactNumbers,
  literalJson,
  LiteralNumber,
  parsePythonLiteral,
  readPythonLiteral,
  type InexactNumber,
  type InexactReason,
  type LiteralValue,
  type PythonLiteralError,
  type PythonValue,
} from "../formats/python-literal.js";
export { renderBar, progressBar, PROGRESS_MIN_MESSAGES, type Progress } from "../command/progress.js";
