/**
 * Message-model internals shared with sibling @cc packages and tests. Not part of the public API.
 *
 * @module @cc/messages/internal
 */
export { MessagesCodec } from "../message.js";
export { UNANSWERED_RESULT } from "../openai.js";
export { lastStepStart, safeBoundaries } from "../split.js";
export { planTaskPin, TASK_PIN_MAX_SHARE, taskIndex } from "../task.js";
export type { Strength } from "../provider.js";
