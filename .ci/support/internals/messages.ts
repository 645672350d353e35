/**
 * What the tests and benchmarks reach inside @cc/messages: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/messages/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/messages
 */
export { MessagesCodec } from "../../../packages/messages/src/message.js";
export { UNANSWERED_RESULT } from "../../../packages/messages/src/openai.js";
export { lastStepStart, safeBoundaries } from "../../../packages/messages/src/split.js";
export { planTaskPin, TASK_PIN_MAX_SHARE, taskIndex } from "../../../packages/messages/src/task.js";
export type { Strength } from "../../../packages/messages/src/provider.js";
