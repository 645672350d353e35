/**
 * What sibling @cc packages (@cc/context) import from @cc/hierarchical: nothing else. Not part of the
 * public API: no stability promise, not for applications. Tests and benchmarks reach the package's
 * other building blocks through the private `@cc/test-support/hierarchical` (never published).
 *
 * @module @cc/hierarchical/internal
 */
export { isSealedNote, sealedNote } from "../strategy/evict.js";
export { EvictionScoringCodec, MaskOptionsCodec } from "../strategy/options.js";
