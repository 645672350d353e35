// Values the examples of @cc/hierarchical use without building them (see .ci/doc-examples.ts;
// read as packages/hierarchical/src/doc-fixtures.ts).
import type { ScoringOptions, Segment } from "@cc/importance";
import type { Message } from "@cc/messages";
import type { Eviction, EvictionOptions, EvictionRunOptions, HierarchicalResult, SummaryWriter } from "./index.js";

/** What one eviction pass did. */
export declare const eviction: Eviction;
/** The key notes are sealed with (`noteKey` of the run). */
export declare const key: string;
/** The time of the pass (epoch milliseconds). */
export declare const now: number;
/** Eviction options. */
export declare const options: EvictionOptions;
/** What one eviction pass runs with (index, counter, clock). */
export declare const run: EvictionRunOptions;
/** What one hierarchical compaction did. */
export declare const result: HierarchicalResult<Segment>;
/** The scoring of a pass. */
export declare const scoring: ScoringOptions;
/** Where summaries are written. */
export declare const writer: SummaryWriter;
/** The messages a pass keeps. */
export declare const kept: readonly Message[];
/** The messages a pass starts from. */
export declare const source: readonly Message[];
/** A long tool output. */
export declare const longLog: string;
/** A long task. */
export declare const longIssue: string;
