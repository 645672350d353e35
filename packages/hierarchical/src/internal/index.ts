/**
 * Eviction internals shared with tests, benchmarks and sibling @cc packages. Not part
 * of the public API.
 *
 * @module @cc/hierarchical/internal
 */

export { alternativeId, ID_ALTERNATIVES, type WriteError } from "../writer.js";
export { extractiveSummary } from "../summarize.js";
export { neighbourPositions, neighbours, prefetch, recordAccess } from "../prefetch.js";
export { MAX_REFERENCES, MAX_WORD_CHARS, SCAN_CHARS } from "../strategy/references.js";
export { EVICTION_NOTE_PREFIX, evictionNote, isSealedNote, noteId, parseEvictionNote, sealedNote } from "../strategy/evict.js";
export { unitId } from "../strategy/segments.js";
export { reaccesses, references } from "../strategy/references.js";
export { EVICTION_SCORING } from "../strategy/evict.js";
export { agentReuse, MAX_TRACKED_TERMS, termKeys } from "../strategy/reuse.js";
export { EvictionScoringCodec, MaskOptionsCodec } from "../strategy/options.js";
export { MASK_PREFIX, type Masking } from "../strategy/mask.js";

export { unitRelevance, workingSetTerms } from "../strategy/relevance.js";
