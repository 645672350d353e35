/**
 * The one way to run a turn: `createContextManager` takes every effect and setting at
 * construction and compacts a conversation to its budget with the chosen strategy. The CLI, the
 * demo, the benchmarks and the framework adapters all run turns through it.
 *
 * Two facades over one implementation: `compact` returns a plain `Promise` (an expected failure
 * rejects with a `CcError` carrying the typed error), `compactTE` returns an
 * fp-ts `TaskEither` that never rejects.
 *
 * @module manager
 */
import { randomBytes } from "node:crypto";
import { memoryIndex, type IndexError, type SearchHit } from "@cc/search";
import { isSealedNote, sealedNote } from "@cc/hierarchical/internal";
import { offlineProvider } from "@cc/lcm";
import { decodeMessages, type Message } from "@cc/messages";
import { tiktokenCounter, tokensWithin } from "@cc/tokens";
import { CcError, decodeWith, intIn, invalid, type InvalidOptions, leaf, objectCodec, positiveInt } from "@cc/validate";
import * as E from "fp-ts/lib/Either.js";
import type { TaskEither } from "fp-ts/lib/TaskEither.js";
import { decodeContextManagerOptions, type ContextManagerOptions } from "./options.js";
import { initialPolicyState } from "./policy/decide.js";
import { decodePolicy, type PolicyOptions, type PolicySettings } from "./policy/settings.js";
import { renderingProblems, type ManagerSnapshot } from "./policy/snapshot.js";
import { cellOf, policyTurn, snapshotOf } from "./policy-turn.js";
import { isRecallMessage, recall, RECALL_DEFAULTS, type RecallOptions } from "./recall.js";
import { aborted, runHierarchical, runLcm } from "./run.js";
import { evictResult, type EvictedToolResult } from "./tool-result.js";
import { buildCore, decodeContextToolOptions, type ContextToolCore, type ContextToolOptions } from "./tools.js";
import { describeIndexError, type ContextError, type EventSink, type Resolved, type TurnResult } from "./types.js";

export { ContextManagerError } from "./types.js";
export type { EvictedToolResult } from "./tool-result.js";
export type { ContextError, ContextEvent, EventSink, TurnResult, TurnWarning } from "./types.js";

/** Per-call settings of {@link ContextManager.compact}. */
export interface CompactCallOptions {
  /** Compact even below the threshold. @default false */
  readonly force?: boolean;
  /** This call's budget instead of the manager's `maxTokens`. */
  readonly maxTokens?: number;
  /** Aborts the turn (what was written to the index by then stays there). */
  readonly signal?: AbortSignal;
  /** This call's verbatim tail instead of the manager's `preserveLast` (the policy's state is kept: the same manager runs the turn). */
  readonly preserveLast?: number;
  /**
   * When the preserved tail alone keeps the prompt above the target (large parallel tool
   * results), compact the result again with shorter tails — half, then the last step (the pending
   * call and its results stay) — folding the earlier note into the new one. @default false
   */
  readonly fitTail?: boolean;
  /**
   * Let the turn rewrite kept messages as a last resort (`hierarchical`): a task too large to pin
   * becomes an excerpt, an oversized step is clipped (see the README, "The task stays"). `false`
   * keeps every kept message byte for byte — for a caller that maps kept messages back to its own
   * objects, as the framework adapters do; the turn may then warn `BudgetNotMet`. @default true
   */
  readonly rewrite?: boolean;
}

/** io-ts codec of {@link CompactCallOptions} (closed: `{ maxTokns: 500 }` is refused by name, never ignored). */
export const CompactCallOptionsCodec = objectCodec(
  "CompactCallOptions",
  {},
  {
    force: leaf("Force", "true or false", (u): u is boolean => typeof u === "boolean"),
    maxTokens: positiveInt,
    signal: leaf(
      "AbortSignal",
      "an AbortSignal",
      (u): u is AbortSignal =>
        typeof u === "object" && u !== null && typeof (u as { aborted?: unknown }).aborted === "boolean",
    ),
    preserveLast: intIn(0, 1_000_000),
    fitTail: leaf("FitTail", "true or false", (u): u is boolean => typeof u === "boolean"),
    rewrite: leaf("Rewrite", "true or false", (u): u is boolean => typeof u === "boolean"),
  },
  { expected: "a call options object" },
);

const decodeCall = decodeWith(CompactCallOptionsCodec, "InvalidOptions", "compact call options");

/** A context manager: one conversation's budget, strategy and effects. */
export interface ContextManager {
  /**
   * The decoded options, defaults filled in; valid options of `createContextManager` again, with
   * `policy` as it was given. A face never reads them: it plans with {@link limits}, compacts with
   * per-call options (a derived manager would start with fresh policy state) and uses the verbs.
   */
  readonly options: Resolved & { readonly policy?: PolicyOptions; readonly events?: EventSink };
  /**
   * Compacts `history` (our `Message[]`, validated) when it reaches the threshold, or always with
   * `force`. Rejects only with a `CcError`.
   */
  compact(history: readonly unknown[], call?: CompactCallOptions): Promise<TurnResult>;
  /** The same turn as an fp-ts `TaskEither` that never rejects. */
  compactTE(history: readonly unknown[], call?: CompactCallOptions): TaskEither<ContextError, TurnResult>;
  /** Searches the units evicted so far (in this manager's namespace). */
  search(query: string, k?: number): Promise<readonly SearchHit[]>;
  /** The original text of an evicted unit, or `undefined` when the id is unknown. */
  expand(id: string): Promise<string | undefined>;
  /** Tokens of a prompt by the manager's counter. */
  count(messages: readonly Message[]): number;
  /** The budget settings a face plans with (what `compact` uses when a call overrides nothing). */
  readonly limits: ManagerLimits;
  /**
   * The tokens a compaction aims at for a budget (`maxTokens` by default): `threshold × maxTokens`
   * rounded down, at least 1 — the one place this arithmetic is written.
   */
  targetTokens(maxTokens?: number): number;
  /**
   * The tool core (`search_context`, `expand_context`) over this manager's index, confined to its
   * namespace, for a face to wrap into its framework's tool type. Bad options throw a
   * `CcError` (`InvalidOptions`) at once, like bad construction options.
   */
  tools(options?: Omit<ContextToolOptions, "namespace">): ContextToolCore;
  /**
   * Eviction of one tool result on arrival: over `maxTokens` (default a quarter of the budget;
   * 0 never evicts), its text goes to the index under a content-addressed id and the result is
   * the `stub` to put in its place (which names the id `expand_context` reads back); `undefined`
   * when it fits or a stub would not be shorter. Never rejects: a refused write is
   * `IndexWriteFailed`, a throwing counter or index `DependencyFailed` (the caller keeps the original).
   */
  evictToolResult(
    result: { readonly toolCallId: string; readonly toolName: string; readonly content: string },
    options?: { readonly maxTokens?: number },
  ): Promise<E.Either<ContextError, EvictedToolResult | undefined>>;
  /**
   * The policy's memory (decision state and the last compaction's rendering) to save and pass
   * back as `resume` after a restart; `undefined` without a `policy`.
   */
  snapshot(): ManagerSnapshot | undefined;
  /**
   * Whether `message` is a note this manager (or one sharing its `noteKey`) wrote: its `id` seals
   * its exact text. A message that only reads like a note is not one.
   */
  isNote(message: Message): boolean;
  /**
   * Whether `message` is a recall this manager appended (see `recall`): sealed with its key, it
   * lives for one prompt and leaves the history on the next turn.
   */
  isRecalled(message: Message): boolean;
  /**
   * The summary message that carries `summary` into a prompt, sealed with this manager's key —
   * the note a `hierarchical` turn places after the system messages — for an adapter that keeps
   * the note's text aside and puts it back later ({@link isNote} is true of it).
   */
  noteMessage(summary: string): Message;
}

/**
 * The budget settings of a manager, as a face plans with them.
 *
 * @example const { maxTokens, preserveLast } = manager.limits;
 */
export interface ManagerLimits {
  readonly maxTokens: number;
  readonly preserveLast: number;
  readonly threshold: number;
}

type Built = Resolved & {
  readonly policy?: PolicySettings;
  readonly policyOptions?: PolicyOptions;
  readonly events?: EventSink;
  readonly resume?: ManagerSnapshot;
};

function resolve(o: ContextManagerOptions, policy: PolicySettings | undefined): Built {
  return {
    maxTokens: o.maxTokens,
    strategy: o.strategy ?? "hierarchical",
    threshold: o.threshold ?? 0.8,
    preserveLast: o.preserveLast ?? 6,
    counter: o.counter ?? tiktokenCounter(),
    provider: o.provider ?? offlineProvider(),
    index: o.index ?? memoryIndex(),
    namespace: o.namespace ?? "default",
    noteTokens: o.noteTokens ?? 512,
    concurrency: o.concurrency ?? 4,
    summaryModel: o.summaryModel ?? "",
    now: o.now ?? Date.now,
    noteKey: o.noteKey ?? o.resume?.noteKey ?? randomBytes(32).toString("hex"),
    pinTask: o.pinTask ?? true,
    mask: o.mask ?? false,
    recall: o.recall ?? false,
    scoring: o.scoring ?? {},
    noteFacts: o.noteFacts ?? true,
    ...(o.alertSink === undefined ? {} : { alertSink: o.alertSink }),
    ...(policy === undefined ? {} : { policy }),
    ...(o.policy === undefined ? {} : { policyOptions: o.policy }),
    ...(o.events === undefined ? {} : { events: o.events }),
    ...(o.resume === undefined ? {} : { resume: o.resume }),
  };
}

const indexReadFailed = (subject: "search" | "expand", cause: IndexError): ContextError => {
  const why = describeIndexError(cause);
  return {
    _tag: "IndexReadFailed",
    subject,
    problems: [why],
    message: `the index failed to ${subject}: ${why}`,
    cause,
  };
};

function build(built: Built): ContextManager {
  const { resume, policyOptions, ...o } = built;
  const count = (messages: readonly Message[]): number =>
    messages.length === 0 ? 0 : o.counter.countMessages(messages);
  const cell = o.policy === undefined ? undefined : cellOf(initialPolicyState, resume);
  const compactTE =
    (input: readonly unknown[], call: CompactCallOptions = {}): TaskEither<ContextError, TurnResult> =>
    async () => {
      const callChecked = decodeCall(call);
      if (E.isLeft(callChecked)) return callChecked;
      const decoded = decodeMessages(input);
      if (E.isLeft(decoded)) return decoded;
      const maxTokens = call.maxTokens ?? o.maxTokens;
      if (call.signal?.aborted === true) return E.left(aborted);
      // A recall lives for one prompt: the one an earlier turn appended leaves the history here.
      const history = decoded.right.some((m) => isRecallMessage(m, o.noteKey))
        ? decoded.right.filter((m) => !isRecallMessage(m, o.noteKey))
        : decoded.right;
      const first = await runTurn(history, maxTokens, call, true);
      const turn = E.isRight(first) && call.fitTail === true ? await fitTail(first.right, maxTokens, call) : first;
      if (E.isLeft(turn) || o.recall === false || o.strategy !== "hierarchical") return turn;
      return E.right(await withRecall(turn.right, o.recall));
    };
  /**
   * Compacts a turn's own output again with shorter tails while the tail alone keeps it above the
   * target: same counter, index and namespace (what leaves is searchable like the rest), the
   * earlier note folded into the new one, the policy's state untouched (these are one turn).
   */
  const fitTail = async (
    first: TurnResult,
    maxTokens: number,
    call: CompactCallOptions,
  ): Promise<E.Either<ContextError, TurnResult>> => {
    let turn = first;
    const target = targetTokens(o.threshold, maxTokens);
    for (const k of shorterTails(call.preserveLast ?? o.preserveLast)) {
      if (turn.tokensAfter <= target) break;
      const r = await runTurn(turn.messages, maxTokens, { ...call, force: true, preserveLast: k }, false);
      if (E.isLeft(r)) return r;
      turn = {
        ...r.right,
        compacted: turn.compacted || r.right.compacted,
        tokensBefore: first.tokensBefore,
        evicted: [...turn.evicted, ...r.right.evicted],
        masked: [...turn.masked, ...r.right.masked],
        warnings: [...turn.warnings.filter((w) => w._tag !== "BudgetNotMet"), ...r.right.warnings],
        ...(first.decision === undefined ? {} : { decision: first.decision }),
      };
    }
    return E.right(turn);
  };
  /** Appends the recall to a finished turn's prompt (an index failure is a warning: the turn stands). */
  const withRecall = async (result: TurnResult, settings: RecallOptions): Promise<TurnResult> => {
    const s = { ...RECALL_DEFAULTS, ...settings };
    const allowance = Math.min(Math.floor(s.share * result.maxTokens), result.maxTokens - result.tokensAfter);
    try {
      const r = await recall(result.messages, {
        index: o.index,
        namespace: o.namespace,
        key: o.noteKey,
        countMessages: (m) => o.counter.countMessages(m),
        allowance,
        k: s.k,
        minScore: s.minScore,
      });
      if (E.isLeft(r))
        return {
          ...result,
          warnings: [...result.warnings, { _tag: "RecallFailed", message: describeIndexError(r.left) }],
        };
      if (r.right.message === undefined) return result;
      const messages = [...result.messages, r.right.message];
      const tokensAfter = count(messages);
      // Never over the budget: the per-message estimate is checked on the whole prompt.
      if (tokensAfter > result.maxTokens) return result;
      return { ...result, messages, tokensAfter, budgetMet: true, recalled: r.right.ids };
    } catch (e) {
      return {
        ...result,
        warnings: [
          ...result.warnings,
          { _tag: "RecallFailed", message: `the index threw: ${e instanceof Error ? e.message : String(e)}` },
        ],
      };
    }
  };
  const runTurn = async (
    history: readonly Message[],
    maxTokens: number,
    call: CompactCallOptions,
    withPolicy: boolean,
  ): Promise<E.Either<ContextError, TurnResult>> => {
    try {
      // The clock is read once per turn and checked before anything runs: a reading the scoring
      // and the index cannot use (before 1970, not finite) fails the turn here, naming the clock.
      const reading = o.now();
      if (typeof reading !== "number" || !Number.isFinite(reading) || reading < 0) {
        return E.left(
          invalid("InvalidOptions", "context manager options", [
            `now: the clock read ${String(reading)}; expected epoch milliseconds, a finite number ≥ 0 (a clock before 1970 is refused)`,
          ]),
        );
      }
      const turnOptions = {
        ...o,
        now: () => reading,
        preserveLast: call.preserveLast ?? o.preserveLast,
        rewrite: call.rewrite ?? true,
      };
      if (withPolicy && o.policy !== undefined && cell !== undefined)
        return await policyTurn(
          turnOptions,
          o.policy,
          cell,
          history,
          maxTokens,
          call.force === true,
          call.signal,
          count,
        );
      const tokensBefore = count(history);
      const target = targetTokens(o.threshold, maxTokens);
      if (tokensBefore < target && call.force !== true) {
        return E.right({
          messages: history,
          compacted: false,
          strategy: o.strategy,
          tokensBefore,
          tokensAfter: tokensBefore,
          maxTokens,
          budgetMet: tokensBefore <= maxTokens,
          evicted: [],
          masked: [],
          recalled: [],
          summary: "",
          warnings: [],
        });
      }
      const candidate =
        o.strategy === "lcm"
          ? await runLcm(history, maxTokens, target, turnOptions, o.provider, call.signal)
          : await runHierarchical(history, tokensBefore, maxTokens, target, turnOptions, call.signal);
      if (E.isLeft(candidate)) return candidate;
      const committed = await candidate.right.commit();
      return E.isLeft(committed) ? committed : E.right(candidate.right.result);
    } catch (e) {
      // A user-supplied counter, index or clock that throws: reported, never a rejection.
      const why = `a dependency threw: ${e instanceof Error ? e.message : String(e)}`;
      return E.left({
        _tag: "DependencyFailed",
        subject: "turn",
        problems: [why],
        message: `the turn failed: ${why}`,
        cause: e,
      });
    }
  };
  const cores = new Map<string, ContextToolCore>();
  const tools = (options: Omit<ContextToolOptions, "namespace"> = {}): ContextToolCore => {
    const given = decodeContextToolOptions(options);
    if (E.isLeft(given)) throw new CcError(given.left);
    if (given.right.namespace !== undefined)
      throw new CcError(
        invalid("InvalidOptions", "context tool options", [
          `namespace: the manager's tools read its own namespace (${JSON.stringify(o.namespace)}); build another manager for another one`,
        ]),
      );
    const key = JSON.stringify(given.right);
    const known = cores.get(key);
    if (known !== undefined) return known;
    const core = buildCore(o.index, { ...given.right, namespace: o.namespace });
    cores.set(key, core);
    return core;
  };
  const evictToolResult: ContextManager["evictToolResult"] = async (result, options = {}) => {
    try {
      return await evictResult(o, result, options.maxTokens ?? Math.floor(o.maxTokens / 4));
    } catch (e) {
      // A user-supplied counter, index or clock that throws: reported, the caller keeps the original.
      const why = `a dependency threw: ${e instanceof Error ? e.message : String(e)}`;
      return E.left({
        _tag: "DependencyFailed",
        subject: "toolResult",
        problems: [why],
        message: `the tool result ${result.toolCallId} stayed whole: ${why}`,
        cause: e,
      });
    }
  };
  const { policy: _resolvedPolicy, ...plain } = o;
  return {
    options: policyOptions === undefined ? plain : { ...plain, policy: policyOptions },
    compactTE,
    compact: async (history, call) => {
      const r = await compactTE(history, call)();
      if (E.isLeft(r)) throw new CcError(r.left);
      return r.right;
    },
    search: async (query, k = 5) => {
      const r = await o.index.search(query, { k, namespace: o.namespace })();
      if (E.isLeft(r)) throw new CcError(indexReadFailed("search", r.left));
      return r.right;
    },
    expand: async (id) => {
      const r = await o.index.expand(id, o.namespace)();
      if (E.isLeft(r)) throw new CcError(indexReadFailed("expand", r.left));
      return r.right?.content;
    },
    count,
    limits: { maxTokens: o.maxTokens, preserveLast: o.preserveLast, threshold: o.threshold },
    targetTokens: (maxTokens = o.maxTokens) => targetTokens(o.threshold, maxTokens),
    tools,
    evictToolResult,
    snapshot: () => (cell === undefined ? undefined : snapshotOf(cell, o.noteKey)),
    isNote: (message) => isSealedNote(message, o.noteKey),
    isRecalled: (message) => isRecallMessage(message, o.noteKey),
    noteMessage: (summary) => sealedNote(summary, o.noteKey),
  };
}

/**
 * The tokens a compaction aims at: `threshold × maxTokens` rounded down, at least 1.
 *
 * @example targetTokens(0.8, 8000) // 6400
 */
export const targetTokens = (threshold: number, maxTokens: number): number => tokensWithin(threshold, maxTokens);

/**
 * The shorter preserved tails `fitTail` tries, in order: half, then 1 (the last message with the
 * call that produced it — the current step is never evicted: the model would call the same tool
 * again).
 *
 * @example shorterTails(6) // [3, 1]
 */
export function shorterTails(preserveLast: number): readonly number[] {
  return [...new Set([Math.floor(preserveLast / 2), 1])].filter((k) => k >= 1 && k < preserveLast);
}

/**
 * Creates a context manager (fp-ts style): `Left<InvalidOptions>` names every bad option.
 *
 * @example
 * const m = decodeContextManager({ maxTokens: 8000 });
 * if (m._tag === "Right") await m.right.compactTE(history)();
 */
export function decodeContextManager(options: unknown): E.Either<InvalidOptions, ContextManager> {
  const decoded = decodeContextManagerOptions(options);
  if (E.isLeft(decoded)) return decoded;
  const o = decoded.right;
  if (o.resume !== undefined && o.policy === undefined)
    return E.left(
      invalid("InvalidOptions", "context manager options", [
        "resume: needs a policy (a snapshot holds a policy's state)",
      ]),
    );
  // A rendering that does not verify is refused here: its bytes would be sent as the next prompt.
  const unverified = o.resume === undefined ? [] : renderingProblems(o.resume);
  if (unverified.length > 0)
    return E.left(
      invalid(
        "InvalidOptions",
        "context manager options",
        unverified.map((p) => `resume.${p}`),
      ),
    );
  let policy: PolicySettings | undefined;
  if (o.policy !== undefined) {
    const p = decodePolicy(o.policy, o.threshold ?? 0.8);
    if (E.isLeft(p)) return p;
    policy = p.right;
  }
  return E.right(build(resolve(o, policy)));
}

/**
 * Creates a context manager. Invalid options throw a `CcError` at once (a
 * programming error, reported before any turn); every turn after that fails only as a value.
 *
 * @example
 * const manager = createContextManager({ maxTokens: 8000 });
 * const { messages, budgetMet } = await manager.compact(history);
 */
export function createContextManager(options: ContextManagerOptions): ContextManager {
  const m = decodeContextManager(options);
  if (E.isLeft(m)) throw new CcError(m.left);
  return m.right;
}
