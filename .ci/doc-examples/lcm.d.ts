// Values the examples of @cc/lcm use without building them (see .ci/doc-examples.ts; read as
// packages/lcm/src/doc-fixtures.ts).
import type { MemoryAlertSink } from "./alerts.js";
import type { CompactionResult, LcmCompactor } from "./index.js";

/** A compactor (`createLcmCompactor`). */
export declare const compactor: LcmCompactor;
/** What one compaction returned. */
export declare const result: CompactionResult;
/** The alert sink the compactor was given. */
export declare const sink: MemoryAlertSink;
