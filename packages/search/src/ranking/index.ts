/**
 * The ranking engine every backend searches with: BM25 (`bm25`), the typed-array postings cache
 * (`postings`) and block-max MaxScore top-k (`topk`).
 *
 * @module search/ranking
 */
export { BM25_B, BM25_K1, idf, MIN_IDF, tfPart, weightOf } from "./bm25.js";
export { BLOCK, PostingsCache, type EntryTerms } from "./postings.js";
export { rank, topK, type RankedHandle, type RankOptions } from "./topk.js";
export { indexedTerms } from "../query.js";
