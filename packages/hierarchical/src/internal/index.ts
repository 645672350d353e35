/**
 * Eviction internals shared with tests, benchmarks and sibling @cc packages. Not part
 * of the public API.
 *
 * @module @cc/hierarchical/internal
 */
export type { SegmentOutcome, SummaryResult } from "../compact.js";
export { alternativeId, ID_ALTERNATIVES, type IndexWriterOptions, type StoredAs, type WriteContext, type WriteError } from "../writer.js";
export { DEFAULT_SUMMARY_PROMPT, extractiveSummary, type ExtractiveOptions, type ProviderSummarizerOptions } from "../summarize.js";
export { neighbourPositions, neighbours, prefetch, recordAccess, type InvalidPrefetch } from "../prefetch.js";
export { MAX_REFERENCES, MAX_WORD_CHARS, SCAN_CHARS } from "../strategy/references.js";
export { EVICTION_NOTE_PREFIX, evictionNote, isSealedNote, NOTE_ID_PREFIX, noteId, parseEvictionNote, sealedNote, type ParsedNote } from "../strategy/evict.js";
export { UNIT_ID_HEX_DIGITS, unitId, type BuildOptions } from "../strategy/segments.js";
export { reaccesses, references } from "../strategy/references.js";
export { EVICTION_SCORING, type EvictionScoring } from "../strategy/evict.js";
export { agentReuse, agentText, argumentValues, MAX_TRACKED_TERMS, termKeys, type UnitReuse } from "../strategy/reuse.js";
export { EvictionScoringCodec, MaskOptionsCodec } from "../strategy/options.js";
export { MASK_DEFAULTS, MASK_PREFIX, maskOutputs, maskStub, outputId, type Masking, type MaskRun } from "../strategy/mask.js";
export { ERROR_LINE_CHARS, FACT_SCAN_CHARS, fitFacts, keyFacts } from "../strategy/facts.js";
export { DEFAULT_RELEVANCE_WINDOW, RELEVANCE_SCAN_CHARS, unitRelevance, workingSetTerms } from "../strategy/relevance.js";
