/**
 * A manager's policy memory as a JSON-safe snapshot: the policy state and the last compaction's
 * rendering. Save it wherever the session lives (a `@cc/session` store, a file) and pass it back
 * as `resume` after a restart: the next prompt renders the same bytes as before the restart.
 *
 * @module policy/snapshot
 */
import { toolCallIssuers } from "@cc/messages";
import {
  decodeWith,
  invalid,
  nonEmptyString,
  nonNegativeInt,
  numberIn,
  objectCodec,
  type InvalidOptions,
} from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import type { PolicyState } from "./decide.js";
import { digestOf, RenderingCodec, type Rendering } from "./rendering.js";

/** What {@link ContextManager.snapshot} returns and the `resume` option takes. */
export interface ManagerSnapshot {
  readonly version: 1;
  readonly state: PolicyState;
  readonly rendering: Rendering | null;
  /**
   * The secret the manager's notes are sealed with, so the resumed manager recognises the note
   * in the rendering and in the history (absent in snapshots written before notes were sealed).
   */
  readonly noteKey?: string;
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
  { noteKey: nonEmptyString },
  { expected: "a manager snapshot" },
);

const decodeShape = decodeWith(ManagerSnapshotCodec, "InvalidOptions", "manager snapshot") as (
  u: unknown,
) => E.Either<InvalidOptions, ManagerSnapshot>;

/**
 * What is wrong with a well-formed snapshot's rendering (pure; [] when nothing): its messages must
 * hash to `renderedDigest` (an inserted, dropped or altered message is refused, never sent), and
 * every tool result in it must answer a call issued before it (no orphaned result reaches the model).
 *
 * @example renderingProblems(snapshot) // ["rendering.renderedDigest: the rendered messages hash to 3f…, not 9a…"]
 */
export function renderingProblems(snapshot: ManagerSnapshot): readonly string[] {
  const r = snapshot.rendering;
  if (r === null) return [];
  const problems: string[] = [];
  const digest = digestOf(r.rendered, r.rendered.length);
  if (digest !== r.renderedDigest)
    problems.push(
      `rendering.renderedDigest: the rendered messages hash to ${digest}, not ${r.renderedDigest} (altered, inserted or dropped messages)`,
    );
  const issuers = toolCallIssuers(r.rendered);
  r.rendered.forEach((m, i) => {
    if (m.role === "tool" && issuers[i] === -1)
      problems.push(
        `rendering.rendered[${i}]: tool result ${JSON.stringify(m.toolCallId)} answers no earlier tool call`,
      );
  });
  return problems;
}

/**
 * Decodes a snapshot (e.g. `JSON.parse` of a saved one): its shape (closed codec), then its
 * rendering ({@link renderingProblems}). A snapshot whose rendering does not verify is an
 * `InvalidOptions` naming the field — it is refused, its bytes are never sent.
 *
 * @example
 * import { readFile } from "node:fs/promises";
 * const resume = decodeSnapshot(JSON.parse(await readFile("snapshot.json", "utf8")));
 */
export function decodeSnapshot(u: unknown): E.Either<InvalidOptions, ManagerSnapshot> {
  const shape = decodeShape(u);
  if (E.isLeft(shape)) return shape;
  const problems = renderingProblems(shape.right);
  return problems.length === 0 ? shape : E.left(invalid("InvalidOptions", "manager snapshot", problems));
}
