/**
 * Agreement on the value of one slot (a log entry, a summary) among writers that share a LangGraph
 * `BaseStore` and nothing else — different processes included. A BaseStore has no
 * compare-and-set, only reads and writes of single records, so this is Paxos over shared
 * registers (Gafni and Lamport's Disk Paxos with one disk): each writer only ever adds records
 * under keys of its own (`b-<round>-<writer>-<phase>`, never overwritten), then reads every record
 * of the slot. Of two writers that each write and then read, at least one sees the other, which
 * is all the safety argument needs: once a value is decided, every later ballot carries it, so no
 * decided value is ever replaced, whatever the delays, crashes or late writes. Writers that
 * collide back off for a random time and retry with a higher ballot.
 *
 * A writer may take back a value it proposed and gave up on (its phase-2 read failed or timed
 * out, or saw a higher ballot) as long as that value, proposed fresh, is still the highest
 * accepted one it reads: nothing can have been decided then (see `choose`). That is how a failed
 * append of one writer never shows up later through that writer.
 *
 * @module store/consensus
 */
import * as E from "fp-ts/lib/Either.js";
import type { Either } from "fp-ts/lib/Either.js";
import type { StoreError } from "@cc/session";
import type { Io, PutOp, Read } from "./backend.js";
import { FORMAT, type Value } from "./records.js";

/** A ballot: higher round first, then the writer id (each writer's ballots are its own). */
export interface Ballot {
  readonly round: number;
  readonly writer: string;
}

/** A record of the agreement on a slot. Phase 2 carries the value accepted at that ballot. */
export interface BallotRecord {
  readonly ballot: Ballot;
  readonly phase: 1 | 2;
  readonly value: Value | null;
  /** Phase 2 only: true when its writer was free to choose the value (nothing could be decided before). */
  readonly fresh: boolean;
}

/** Orders ballots. */
export const compareBallots = (a: Ballot, b: Ballot): number =>
  a.round - b.round || (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : 0);

/** Key of a ballot record (unique to its writer). */
export const ballotKey = (b: Ballot, phase: 1 | 2): string => `b-${b.round}-${b.writer}-${phase}`;

const encodeBallot = (r: BallotRecord): Value => ({
  format: FORMAT,
  round: r.ballot.round,
  writer: r.ballot.writer,
  phase: r.phase,
  value: r.value,
  fresh: r.fresh,
});

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u);

/** Reads a ballot record; `Left` is why it is not one. */
export function decodeBallot(u: Read): Either<string, BallotRecord> {
  if (u === null) return E.left("ballot record is empty");
  const { format, round, writer, phase, value, fresh } = u;
  if (format !== FORMAT) return E.left(`ballot record has format ${String(format)}, expected ${FORMAT}`);
  if (typeof round !== "number" || !Number.isSafeInteger(round) || round < 1)
    return E.left(`ballot round is not an integer ≥ 1: ${String(round)}`);
  if (typeof writer !== "string" || writer.length === 0) return E.left("ballot writer is not a non-empty string");
  if (phase !== 1 && phase !== 2) return E.left(`ballot phase is neither 1 nor 2: ${String(phase)}`);
  if (phase === 2 ? !isObject(value) : value !== null)
    return E.left(phase === 2 ? "phase-2 ballot carries no value" : "phase-1 ballot carries a value");
  if (typeof fresh !== "boolean") return E.left("ballot fresh is not a boolean");
  return E.right({ ballot: { round, writer }, phase, value: isObject(value) ? value : null, fresh });
}

/** What to do after reading a slot's records in phase 1 or 2. */
export type Choice =
  | { readonly kind: "abort"; readonly nextRound: number }
  | { readonly kind: "go"; readonly value: Value; readonly fresh: boolean };

/**
 * Phase 1's decision for writer `me.writer` at ballot `me` over the slot's `records`: abort if a
 * higher ballot exists; else adopt the value of the highest accepted (phase-2) record — unless
 * there is none, or it is this writer's own fresh value at a ballot it gave up (`abandoned`):
 * then nothing can have been decided (a decision at a lower ballot would have shown when that
 * fresh value was chosen; one at a ballot in between would be the higher accepted record), and
 * `own` is proposed.
 */
export function choose(
  records: readonly BallotRecord[],
  me: Ballot,
  own: Value,
  abandoned: (b: Ballot) => boolean,
): Choice {
  let top: Ballot | undefined;
  let accepted: BallotRecord | undefined;
  for (const r of records) {
    if (top === undefined || compareBallots(r.ballot, top) > 0) top = r.ballot;
    if (r.phase === 2 && (accepted === undefined || compareBallots(r.ballot, accepted.ballot) > 0)) accepted = r;
  }
  if (top !== undefined && compareBallots(top, me) > 0) return { kind: "abort", nextRound: top.round + 1 };
  if (accepted === undefined || accepted.value === null) return { kind: "go", value: own, fresh: true };
  if (accepted.ballot.writer === me.writer && accepted.fresh && abandoned(accepted.ballot))
    return { kind: "go", value: own, fresh: true };
  return { kind: "go", value: accepted.value, fresh: false };
}

/** The highest round of a record whose ballot is higher than `me` (phase 2 read: the ballot lost), or `undefined`. */
export const outbid = (records: readonly BallotRecord[], me: Ballot): number | undefined => {
  let top: number | undefined;
  for (const r of records) if (compareBallots(r.ballot, me) > 0) top = Math.max(top ?? 0, r.ballot.round);
  return top;
};

/** What a writer remembers of a slot it has not seen decided: the last round it used and the rounds it gave up. */
export interface SlotMemory {
  lastRound: number;
  readonly abandoned: Set<number>;
}

/**
 * A writer taking part in agreements: its id and, per slot namespace, what it remembers. It never
 * uses a round twice on a slot, so a late write of a ballot it gave up can never land over another.
 */
export interface Proposer {
  readonly writer: string;
  readonly slots: Map<string, SlotMemory>;
}

/** Most ballots one agreement tries before it reports the contention. */
export const MAX_ROUNDS = 64;

const pause = (attempt: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempt, 64)));

/**
 * Runs the agreement on the slot whose ballots live in `namespace`, proposing `own`; `extra`
 * records are written with the first ballot (once). Resolves to the decided value (`own` or one
 * another writer proposed), or the failure that stopped it — after which this writer's ballot is
 * given up (so `own` can be taken back by its next agreement on this slot).
 */
export async function decide(
  io: Io,
  proposer: Proposer,
  namespace: string[],
  own: Value,
  extra: readonly PutOp[],
  corrupt: (why: string) => StoreError,
): Promise<Either<StoreError, Value>> {
  const slot = JSON.stringify(namespace);
  const memory = proposer.slots.get(slot) ?? { lastRound: 0, abandoned: new Set<number>() };
  proposer.slots.set(slot, memory);
  const given = memory.abandoned;
  const abandoned = (b: Ballot): boolean => b.writer === proposer.writer && given.has(b.round);
  const read = async (): Promise<Either<StoreError, readonly BallotRecord[]>> => {
    const items = await io.searchAll(namespace);
    if (E.isLeft(items)) return items;
    const out: BallotRecord[] = [];
    for (const item of items.right) {
      const r = decodeBallot(item);
      if (E.isLeft(r)) return E.left(corrupt(`agreement record: ${r.left}`));
      out.push(r.right);
    }
    return E.right(out);
  };
  let pending = extra;
  let round = memory.lastRound + 1;
  for (let attempt = 0; attempt < MAX_ROUNDS; attempt++) {
    if (attempt > 0) await pause(attempt);
    round = Math.max(round, memory.lastRound + 1);
    memory.lastRound = round;
    const me: Ballot = { round, writer: proposer.writer };
    const put = (phase: 1 | 2, value: Value | null, fresh: boolean): PutOp => ({
      namespace,
      key: ballotKey(me, phase),
      value: encodeBallot({ ballot: me, phase, value, fresh }),
    });
    const first = await io.put([...pending, put(1, null, false)]);
    if (E.isLeft(first)) return first;
    pending = [];
    const seen = await read();
    if (E.isLeft(seen)) return seen;
    const choice = choose(seen.right, me, own, abandoned);
    if (choice.kind === "abort") {
      round = choice.nextRound;
      continue;
    }
    // From here until the phase-2 read shows no higher ballot, the value may be accepted but is not decided.
    given.add(me.round);
    const second = await io.put([put(2, choice.value, choice.fresh)]);
    if (E.isLeft(second)) return second;
    const check = await read();
    if (E.isLeft(check)) return check;
    const higher = outbid(check.right, me);
    if (higher !== undefined) {
      round = higher + 1;
      continue;
    }
    // Decided: this writer never proposes on the slot again.
    proposer.slots.delete(slot);
    return E.right(choice.value);
  }
  return E.left({
    _tag: "StoreUnavailable",
    backend: "langgraph",
    message: `no agreement after ${MAX_ROUNDS} ballots: other writers keep writing to this stack; try again`,
  });
}
