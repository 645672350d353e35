/**
 * Transcript readers: OpenAI chat JSON, JSONL, SWE-agent `.traj` and mini-swe-agent `.traj.json`, into the @cc/lcm message model.
 *
 * @module formats
 */
export { readTranscript, type ReadOptions, type ReadResult, type TranscriptFormat } from "./read.js";
export { readJsonl, readOpenAIJson, fromOpenAIValue, type Transcript } from "./openai.js";
export { readTraj, fromTrajValue } from "./traj.js";
export { readMini, fromMiniValue, isMiniTrajectory, bashBlocks } from "./mini.js";
export {
  formatTranscriptError,
  type TranscriptError,
  type EmptyInput,
  type MalformedJson,
  type InvalidMessages,
  type UnrecognisedFormat,
} from "./error.js";
export { parsePythonLiteral, type PythonLiteralError, type PythonValue } from "./python-literal.js";
export { parseJson, lineColumn, firstJsonErrorOffset, type JsonSyntaxError } from "./json.js";
