/**
 * What sibling @cc packages (@cc/lcm and @cc/session) import from @cc/messages: nothing else. Not part of the
 * public API: no stability promise, not for applications. Tests and benchmarks reach the package's
 * other building blocks through the private `@cc/test-support/messages` (never published).
 *
 * @module @cc/messages/internal
 */
export { MessagesCodec } from "../message.js";
export { planTaskPin } from "../task.js";
export type { Strength } from "../provider.js";
