/**
 * A manager's policy memory as a JSON-safe snapshot: the policy state and the last compaction's
 * rendering. Save it wherever the session lives (a `@cc/session` store, a file) and pass it back
 * as `resume` after a restart: the next prompt renders the same bytes as before the restart.
 *
 * @module policy/snapshot
 */
import { decodeWith, nonNegativeInt, numberIn, objectCodec, type InvalidOptions } from "@cc/validate";
import type * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { PolicyState } from "./decide.js";
import { RenderingCodec, type Rendering } from "./rendering.js";

/** What {@link ContextManager.snapshot} returns and the `resume` option takes. */
export interface ManagerSnapshot {
  readonly version: 1;
  readonly state: PolicyState;
  readonly rendering: Rendering | null;
}

const SummariserCodec = t.union([
  objectCodec("Ready", { _tag: t.literal("Ready") }, {}),
  objectCodec("CoolingDown", { _tag: t.literal("CoolingDown"), untilTurn: nonNegativeInt, error: t.string }, {}),
  objectCodec("Disabled", { _tag: t.literal("Disabled"), error: t.string }, {}),
]);

const PolicyStateCodec = objectCodec(
  "PolicyState",
  {
    turn: nonNegativeInt,
    lastCompactionTurn: t.union([t.null, nonNegativeInt]),
    backoff: numberIn(0, 1),
    lastPromptTokens: t.union([t.null, nonNegativeInt]),
    grownTokens: nonNegativeInt,
    grownTurns: nonNegativeInt,
    summariser: SummariserCodec,
  },
  {},
);

/** io-ts codec of a {@link ManagerSnapshot} (closed). */
export const ManagerSnapshotCodec = objectCodec(
  "ManagerSnapshot",
  { version: t.literal(1), state: PolicyStateCodec, rendering: t.union([t.null, RenderingCodec]) },
  {},
  { expected: "a manager snapshot" },
);

/**
 * Decodes a snapshot (e.g. `JSON.parse` of a saved one).
 *
 * @example const resume = decodeSnapshot(JSON.parse(saved));
 */
export const decodeSnapshot = decodeWith(ManagerSnapshotCodec, "InvalidOptions", "manager snapshot") as (u: unknown) => E.Either<InvalidOptions, ManagerSnapshot>;
