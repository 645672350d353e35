/**
 * What the tests and benchmarks reach inside @cc/hierarchical: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/hierarchical/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/hierarchical
 */

export { alternativeId, ID_ALTERNATIVES, type WriteError } from "../../../packages/hierarchical/src/writer.js";
export { extractiveSummary } from "../../../packages/hierarchical/src/summarize.js";
export { neighbourPositions, neighbours, prefetch, recordAccess } from "../../../packages/hierarchical/src/prefetch.js";
export { MAX_REFERENCES, MAX_WORD_CHARS, SCAN_CHARS } from "../../../packages/hierarchical/src/strategy/references.js";
export {
  EVICTION_NOTE_PREFIX,
  evictionNote,
  isSealedNote,
  noteId,
  parseEvictionNote,
  sealedNote,
} from "../../../packages/hierarchical/src/strategy/evict.js";
export { unitId } from "../../../packages/hierarchical/src/strategy/segments.js";
export { reaccesses, references } from "../../../packages/hierarchical/src/strategy/references.js";
export { EVICTION_SCORING } from "../../../packages/hierarchical/src/strategy/evict.js";
export { agentReuse, MAX_TRACKED_TERMS, termKeys } from "../../../packages/hierarchical/src/strategy/reuse.js";
export { EvictionScoringCodec, MaskOptionsCodec } from "../../../packages/hierarchical/src/strategy/options.js";
export { MASK_PREFIX, type Masking } from "../../../packages/hierarchical/src/strategy/mask.js";

export { unitRelevance, workingSetTerms } from "../../../packages/hierarchical/src/strategy/relevance.js";
