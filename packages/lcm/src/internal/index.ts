/**
 * What sibling @cc packages (@cc/cli, @cc/context and @cc/session) import from @cc/lcm: nothing else. Not part of the
 * public API: no stability promise, not for applications. Tests and benchmarks reach the package's
 * other building blocks through the private `@cc/test-support/lcm` (never published).
 *
 * @module @cc/lcm/internal
 */
export { describeRejection } from "../compactor.js";
export { headOf } from "../clip.js";
export { strengthTiers } from "../model-choice.js";
export { createRunRemover, displayUrl, urlSecrets } from "../providers/redact.js";
export { defaultTranscriptLimits, wrapTranscript } from "../transcript.js";
