/**
 * Index and eviction internals shared with tests, benchmarks and sibling @cc packages. Not part
 * of the public API.
 *
 * @module @cc/hierarchical/internal
 */
export { DEFAULT_K, entryKey, idConflict, IndexEntryCodec, MAX_K, messageOf, resolveSearchOptions, validateEntries, type IndexBackend, type ResolvedSearch } from "../search/index.js";
export { bestSnippet, distinctTerms, fts5Match, indexedText, MAX_FIELD_TERMS, MAX_QUERY_TERMS, MAX_TERM_LENGTH, queryTerms, tokenize, tsqueryLiteral, tsvectorLiteral, type SnippetOptions } from "../search/query.js";
export { decodeText, encodeText, entryFromRow, ESCAPED, isPlainJson, isPlainText, searchable, type StoredEntryRow } from "../search/lossless.js";
export { SQLITE_SCHEMA_VERSION } from "../search/sqlite-schema.js";
export { POSTGRES_SCHEMA_VERSION } from "../search/postgres-schema.js";
export type { SqlRunner } from "../search/postgres.js";
export { driverUnavailable, loadDriver } from "../search/driver.js";
export type { SegmentOutcome, SummaryResult } from "../compact.js";
export { alternativeId, ID_ALTERNATIVES, type IndexWriterOptions, type StoredAs, type WriteContext, type WriteError } from "../writer.js";
export { DEFAULT_SUMMARY_PROMPT, extractiveSummary, type ExtractiveOptions, type ProviderSummarizerOptions } from "../summarize.js";
export { neighbourPositions, neighbours, prefetch, recordAccess, type InvalidPrefetch } from "../prefetch.js";
export { MAX_REFERENCES, MAX_WORD_CHARS, SCAN_CHARS } from "../strategy/references.js";
export { EVICTION_NOTE_PREFIX, evictionNote, isSealedNote, NOTE_ID_PREFIX, noteId, parseEvictionNote, sealedNote, type ParsedNote } from "../strategy/evict.js";
export { UNIT_ID_HEX_DIGITS, unitId, type BuildOptions } from "../strategy/segments.js";
export { DEFAULT_NAMESPACE } from "../search/index.js";
export { snippet } from "../search/query.js";
export { reaccesses, references } from "../strategy/references.js";
export { BM25_B, BM25_K1, idf, indexedTerms, PostingsCache, rank, tfPart } from "../search/ranking/index.js";
export { EVICTION_SCORING, type EvictionScoring } from "../strategy/evict.js";
export { agentReuse, agentText, argumentValues, MAX_TRACKED_TERMS, termKeys, type UnitReuse } from "../strategy/reuse.js";
export { DEFAULT_POSTINGS_CACHE_BYTES, postingsCacheStats, type PostingsCacheStats } from "../search/ranking/scopes.js";
export { EvictionScoringCodec, MaskOptionsCodec } from "../strategy/options.js";
export { MASK_DEFAULTS, MASK_PREFIX, maskOutputs, maskStub, outputId, type Masking, type MaskRun } from "../strategy/mask.js";
export { ERROR_LINE_CHARS, FACT_SCAN_CHARS, fitFacts, keyFacts } from "../strategy/facts.js";
export { DEFAULT_RELEVANCE_WINDOW, RELEVANCE_SCAN_CHARS, unitRelevance, workingSetTerms } from "../strategy/relevance.js";
