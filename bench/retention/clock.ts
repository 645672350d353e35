/**
 * The replay's clock: when each message of a session happened.
 *
 * Recorded timestamps are used when the session has them for every message (finite, ≥ 0,
 * non-decreasing); otherwise the whole session gets a synthetic clock, message `j` at
 * `t0 + j · stepMs`. Mixing the two would put recorded and invented times on one axis, so it is
 * all or nothing. Neither the SWE-agent trajectories nor the generated sessions carry timestamps,
 * so both corpora run on the synthetic clock today.
 *
 * Only the ratio `stepMs / recencyHalfLifeMs` matters to a recency score on the synthetic clock:
 * a 10-minute half-life at 30 s per message ranks exactly like a 30-minute one at 90 s.
 */

/** Which clock a session was replayed on. */
export type ClockKind = "recorded" | "synthetic";

/** The time of every message of a session (epoch ms), and where those times come from. */
export interface SessionClock {
  readonly kind: ClockKind;
  readonly times: readonly number[];
}

/**
 * The clock of a session.
 *
 * @example sessionClock([{}, {}], 1000, 30_000) // { kind: "synthetic", times: [1000, 31000] }
 * @example sessionClock([{ timestamp: 5 }, { timestamp: 9 }], 0, 1) // { kind: "recorded", times: [5, 9] }
 */
export function sessionClock(
  messages: readonly { readonly timestamp?: number }[],
  t0: number,
  stepMs: number,
): SessionClock {
  const recorded = messages.map((m) => m.timestamp);
  const usable =
    recorded.length > 0 &&
    recorded.every(
      (t, i): t is number =>
        typeof t === "number" && Number.isFinite(t) && t >= 0 && (i === 0 || t >= (recorded[i - 1] ?? Number.NaN)),
    );
  if (usable) return { kind: "recorded", times: recorded.map((t) => t ?? 0) };
  return { kind: "synthetic", times: messages.map((_, j) => t0 + j * stepMs) };
}
