/**
 * The retention protocol: replay a session message by message with a token budget, compact with
 * a policy whenever the context exceeds it, write what is evicted into a search index, and check
 * every later re-access — was the referenced message still in the context, and if not, is it a
 * top-k `search` hit for the referring term?
 *
 * Protocol (also in bench/README.md):
 * - message `j` arrives at time `t_j` of the session's clock (`clock.ts`: its recorded timestamps,
 *   else `t0 + j · stepMs`); its segment costs `count(text)` tokens (text = content + tool calls),
 *   one count per message shared by every policy and by the budget; system messages are pinned;
 * - budget = `fraction × (tokens of the whole session)`;
 * - before message `j` joins the context, each re-access made by `j` is scored against the
 *   current context and index (only once a compaction has happened: before that every policy
 *   trivially keeps everything); then the referenced messages' access statistics are updated
 *   (`accessCount + 1`, `lastAccessed = t_j`), `j` joins, and if the context exceeds the budget
 *   the policy compacts it (the clock read once: `now = t_j`);
 * - evicted messages are written to the index (`summary` = role, first line and terms;
 *   `content` = the text) and never come back into the context.
 */
import type { IndexEntry, IndexError, SegmentIndex } from "@cc/hierarchical";
import type { ImportanceOptions } from "@cc/importance";
import * as E from "fp-ts/lib/Either.js";
import type * as TE from "fp-ts/lib/TaskEither.js";
import { sessionClock, type ClockKind } from "./clock.js";
import type { Candidate, Policy } from "./policies.js";
import { findReaccesses, messageTerms, type Reaccess, type RuleMessage } from "./reaccess.js";

/** A conversation to replay. */
export interface Session {
  readonly name: string;
  /** Where it comes from ("swe-agent", "generated"). */
  readonly source: string;
  readonly messages: readonly RuleMessage[];
}

/** Settings of one replay. */
export interface ReplayOptions {
  /** Budget as a share of the session's total tokens, in (0, 1]. */
  readonly fraction: number;
  /** Token count of a text (the caller's counter). */
  readonly count: (text: string) => number;
  /** Synthetic clock (sessions without recorded timestamps): time of the first message (epoch ms). */
  readonly t0: number;
  /** Synthetic clock: time between two messages (ms). */
  readonly stepMs: number;
  readonly seed: number;
  /** Hits a re-access may be found among. */
  readonly k: number;
  readonly importance: ImportanceOptions;
  /** Name of this configuration in reports (default: the policy's name). */
  readonly label?: string;
}

/** What happened to the re-accesses of one replay. */
export interface ReplayOutcome {
  readonly session: string;
  readonly source: string;
  /** The configuration's label (the policy's name unless the options gave one). */
  readonly policy: string;
  readonly seed: number;
  readonly fraction: number;
  readonly clock: ClockKind;
  readonly totalTokens: number;
  /** Re-accesses made after the first compaction (the ones scored). */
  readonly evaluated: number;
  /** Of those, the referenced message was still in the context. */
  readonly kept: number;
  /** Of those, it was evicted but a top-k search hit for the referring term. */
  readonly recovered: number;
  readonly compactions: number;
  readonly evictedMessages: number;
  /** Re-accesses lost for good: `at`, `origin` and the query. */
  readonly lost: readonly Reaccess[];
}

/** Why a replay failed. */
export type ReplayError =
  | { readonly _tag: "InvalidReplay"; readonly field: string; readonly message: string }
  | { readonly _tag: "IndexFailed"; readonly session: string; readonly error: IndexError };

/** The text a message occupies in the context: content, then each tool call. */
export function contextText(m: RuleMessage): string {
  const calls = (m.toolCalls ?? []).map((c) => `${c.name}(${c.arguments})`);
  return [m.content, ...calls].filter((s) => s !== "").join("\n");
}

/** Makes a string storable by every index backend: lone surrogates → U+FFFD, NUL removed. */
export function storable(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD").split("\u0000").join("");
}

/**
 * The index summary of an evicted message: role, its first non-empty line (≤ 160 chars) and its
 * terms (≤ 30), so a search for a file, identifier, error or call id finds it.
 *
 * @example summaryOf({ role: "tool", content: "Traceback…\nKeyError: 'x'" }) // "tool: Traceback… | KeyError"
 */
export function summaryOf(m: RuleMessage): string {
  const first = (m.content.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").trim();
  const head = Array.from(first).slice(0, 160).join("");
  const terms = messageTerms(m)
    .slice(0, 30)
    .map((t) => t.text);
  return storable([`${m.role}: ${head}`, ...(terms.length > 0 ? [terms.join(" ")] : [])].join(" | "));
}

function validate(o: ReplayOptions): E.Either<ReplayError, ReplayOptions> {
  const bad = (field: string, message: string): E.Either<ReplayError, ReplayOptions> => E.left({ _tag: "InvalidReplay", field, message });
  if (!(Number.isFinite(o.fraction) && o.fraction > 0 && o.fraction <= 1)) return bad("fraction", `expected a number in (0, 1] (got ${o.fraction})`);
  if (!(Number.isFinite(o.stepMs) && o.stepMs >= 0)) return bad("stepMs", `expected a finite number ≥ 0 (got ${o.stepMs})`);
  if (!(Number.isFinite(o.t0) && o.t0 >= 0)) return bad("t0", `expected a finite number ≥ 0 (got ${o.t0})`);
  if (!(Number.isInteger(o.k) && o.k >= 1)) return bad("k", `expected an integer ≥ 1 (got ${o.k})`);
  return E.right(o);
}

/**
 * Replays `session` under `policy` with a fresh `index` (which the caller closes).
 *
 * @example
 * const r = await replay(session, fifoPolicy, memoryIndex(), { fraction: 0.5, count, t0: 0, stepMs: 30_000, seed: 1, k: 5, importance: {} })();
 */
export function replay(session: Session, policy: Policy, index: SegmentIndex, options: ReplayOptions): TE.TaskEither<ReplayError, ReplayOutcome> {
  return async () => {
    const valid = validate(options);
    if (E.isLeft(valid)) return valid;
    const o = valid.right;
    const msgs = session.messages;
    const texts = msgs.map(contextText);
    const tokens = texts.map((t) => Math.max(0, o.count(t)));
    const total = tokens.reduce((a, b) => a + b, 0);
    const budget = o.fraction * total;
    const reaccesses = findReaccesses(msgs);
    const byAt = new Map<number, Reaccess[]>();
    for (const r of reaccesses) byAt.set(r.at, [...(byAt.get(r.at) ?? []), r]);
    const clock = sessionClock(msgs, o.t0, o.stepMs);
    const time = (j: number): number => clock.times[j] ?? o.t0;
    const inContext = new Array<boolean>(msgs.length).fill(false);
    const accessCount = new Array<number>(msgs.length).fill(0);
    const lastAccessed = msgs.map((_, j) => time(j));
    const lost: Reaccess[] = [];
    let used = 0;
    let compactions = 0;
    let evictedMessages = 0;
    let evaluated = 0;
    let kept = 0;
    let recovered = 0;
    for (let j = 0; j < msgs.length; j++) {
      const refs = byAt.get(j) ?? [];
      if (compactions > 0) {
        for (const r of refs) {
          evaluated++;
          if (inContext[r.origin] === true) {
            kept++;
            continue;
          }
          const hits = await index.search(r.term.text, { k: o.k, namespace: session.name })();
          if (E.isLeft(hits)) return E.left({ _tag: "IndexFailed", session: session.name, error: hits.left });
          if (hits.right.some((h) => h.id === String(r.origin))) recovered++;
          else lost.push(r);
        }
      }
      for (const r of refs) {
        accessCount[r.origin] = accessCount[r.origin]! + 1;
        lastAccessed[r.origin] = time(j);
      }
      inContext[j] = true;
      used += tokens[j]!;
      if (used <= budget) continue;
      compactions++;
      const candidates: Candidate[] = [];
      for (let i = 0; i <= j; i++) {
        if (!inContext[i]) continue;
        candidates.push({
          index: i,
          tokens: tokens[i]!,
          createdAt: time(i),
          lastAccessed: lastAccessed[i]!,
          accessCount: accessCount[i]!,
          pinned: msgs[i]!.role === "system",
          content: texts[i]!,
        });
      }
      const evict = [...new Set(policy.evict({ candidates, budget, now: time(j), seed: o.seed, importance: o.importance }))].filter(
        (i) => inContext[i] === true && msgs[i]!.role !== "system",
      );
      if (evict.length === 0) continue;
      const entries: IndexEntry[] = evict.map((i) => ({
        id: String(i),
        namespace: session.name,
        kind: msgs[i]!.role,
        summary: summaryOf(msgs[i]!),
        content: storable(texts[i]!),
        tokenCost: tokens[i]!,
        createdAt: time(i),
        evictedAt: time(j),
        metadata: {},
      }));
      const written = await index.write(entries)();
      if (E.isLeft(written)) return E.left({ _tag: "IndexFailed", session: session.name, error: written.left });
      for (const i of evict) {
        inContext[i] = false;
        used -= tokens[i]!;
      }
      evictedMessages += evict.length;
    }
    return E.right({
      session: session.name,
      source: session.source,
      policy: o.label ?? policy.name,
      seed: o.seed,
      fraction: o.fraction,
      clock: clock.kind,
      totalTokens: total,
      evaluated,
      kept,
      recovered,
      compactions,
      evictedMessages,
      lost,
    });
  };
}
