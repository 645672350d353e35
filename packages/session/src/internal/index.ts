/**
 * What sibling @cc packages (@cc/langchain) import from @cc/session: nothing else. Not part of the
 * public API: no stability promise, not for applications. Tests and benchmarks reach the package's
 * other building blocks through the private `@cc/test-support/session` (never published).
 *
 * @module @cc/session/internal
 */
export { type StackId } from "../store/store.js";
export {
  checkDraft,
  checkId,
  checkMessages,
  checkNow,
  checkStackId,
  decodeContent,
  decodeMessage,
  encodeContent,
  encodeMessage,
  watermarkProblem,
} from "../store/validate.js";
