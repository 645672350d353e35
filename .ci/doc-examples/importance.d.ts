// Values the examples of @cc/importance use without building them (see .ci/doc-examples.ts; read
// as packages/importance/src/doc-fixtures.ts).
import type { Segment } from "./index.js";

/** One segment. */
export declare const seg: Segment;
/** The clock of scoring (epoch milliseconds). */
export declare const now: () => number;
