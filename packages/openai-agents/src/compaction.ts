/**
 * The adapter: one object built from a context manager that gives the OpenAI Agents SDK a
 * `callModelInputFilter`, a compacting `Session` wrapper and the `search_context` /
 * `expand_context` tools, all running turns through `manager.compact`.
 *
 * @module compaction
 */
import { createContextManager, type ContextError, type TurnResult } from "@cc/context";
import type { InvalidOptions } from "@cc/validate";
import type { AgentInputItem, CallModelInputFilter, ModelInputData, Session } from "@openai/agents";
import * as E from "fp-ts/lib/Either.js";
import { CcError, type CcErrorOf, decodeWith, intIn, objectCodec } from "@cc/validate";
import { itemKind } from "./convert/kinds.js";
import { itemsToMessages, messagesToItems } from "./convert/messages.js";
import {
  decodeAgentsCompactionOptions,
  type AdapterWarning,
  type AgentsCompactionOptions,
  type CompactionReport,
  type CompactionSource,
} from "./options.js";
import { compactingSession, type CompactingSession } from "./session.js";
import { contextTools, type ExpandContextTool, type SearchContextTool } from "./tools.js";

/**
 * Why the adapter could not be built or a compaction produced no input.
 *
 * @example
 * const r = await cc.compactItems(items)();
 * if (r._tag === "Left" && r.left._tag === "IndexWriteFailed") console.error(r.left.message);
 */
export type AgentsError = InvalidOptions | ContextError;

/**
 * The rejection of the Promise-returning parts (the filter, the session's `getItems`,
 * {@link createAgentsCompaction}): an `Error` carrying the typed {@link AgentsError}.
 *
 * @example
 * import { run } from "@openai/agents";
 * try { await run(agent, "hi", { callModelInputFilter: cc.callModelInputFilter }); }
 * catch (e) { if (e instanceof AgentsCompactionError) console.error(e.error._tag, e.error); }
 *
 * @deprecated Use `CcError` from @cc/validate (this name is the same class; `instanceof` keeps working); kept one release.
 */
export const AgentsCompactionError = CcError as unknown as CcErrorOf<AgentsError>;
/** @deprecated Use `CcError` from @cc/validate (the one error class of @cc); kept one release. */
export type AgentsCompactionError = InstanceType<typeof AgentsCompactionError>;

/**
 * Items after one compaction, with the instructions and the report.
 *
 * @example
 * const r = await cc.compactItems(items, "Be brief.")();
 * if (r._tag === "Right") console.log(r.right.instructions, r.right.items.length); // what the model is sent
 */
export interface CompactedItems {
  /** The items to send: kept originals (the same objects) and the summary note, in order. */
  readonly items: readonly AgentInputItem[];
  /** The instructions, unchanged (they are pinned). */
  readonly instructions?: string;
  readonly report: CompactionReport;
}

/**
 * The adapter built by {@link createAgentsCompaction}.
 *
 * @example
 * import { Agent, MemorySession, run } from "@openai/agents";
 * const cc = createAgentsCompaction({ manager });
 * await run(new Agent({ name: "a", tools: [...cc.tools] }), "hi", { session: cc.session(new MemorySession()) });
 */
export interface AgentsCompaction {
  /**
   * A `callModelInputFilter` for `run(agent, input, { callModelInputFilter })` or a `Runner`
   * config: each model call gets the input compacted to the manager's budget (instructions
   * included unless `countInstructions: false`). A failed turn rejects the run with an
   * `CcError`.
   */
  readonly callModelInputFilter: CallModelInputFilter;
  /**
   * Wraps any `Session` so `getItems()` returns the stored history compacted (see
   * {@link compactingSession}); storage keeps every item. The view is compacted as the prefix of
   * the next model input (its newest items are not pinned) to `maxTokens − reserveTokens`. The SDK
   * sends the items a run produces without asking the session: to keep every call of a run within
   * budget, pass `callModelInputFilter` too. Invalid options throw a `CcError`.
   */
  session(inner: Session, options?: SessionViewOptions): CompactingSession;
  /** `search_context` and `expand_context` over the units the manager evicted (its index and namespace). */
  readonly tools: readonly [SearchContextTool, ExpandContextTool];
  /**
   * Compacts items (fp-ts style, never rejects): the kept items are the input objects themselves.
   *
   * @example
   * const r = await cc.compactItems(await session.getItems(), "You are terse.")();
   * if (r._tag === "Right") console.log(r.right.items.length, r.right.report.turn.budgetMet);
   */
  compactItems(
    items: readonly AgentInputItem[],
    instructions?: string,
    source?: CompactionSource,
  ): () => Promise<E.Either<ContextError, CompactedItems>>;
  /** The report of the latest compaction (with any warning its `onReport` raised). */
  lastReport(): CompactionReport | undefined;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Builds the adapter (fp-ts style): `Left<InvalidOptions>` names every bad option.
 *
 * @example
 * import { run } from "@openai/agents";
 * const cc = decodeAgentsCompaction({ manager: createContextManager({ maxTokens: 8000 }) });
 * if (cc._tag === "Right") await run(agent, "hi", { callModelInputFilter: cc.right.callModelInputFilter });
 */
export function decodeAgentsCompaction(options: unknown): E.Either<InvalidOptions, AgentsCompaction> {
  const decoded = decodeAgentsCompactionOptions(options);
  return E.isLeft(decoded) ? decoded : E.right(build(decoded.right));
}

/**
 * Builds the adapter. Invalid options throw a `CcError` at once (a
 * programming error, reported before any run).
 *
 * @example
 * import { Agent, MemorySession, run } from "@openai/agents";
 * import { createAgentsCompaction } from "@cc/openai-agents";
 * const cc = createAgentsCompaction({ maxTokens: 8000 });
 * const agent = new Agent({ name: "coder", instructions: "…", tools: [...cc.tools] });
 * await run(agent, "Fix the CSV reader", { session: cc.session(new MemorySession()), callModelInputFilter: cc.callModelInputFilter });
 */
export function createAgentsCompaction(options: AgentsCompactionOptions): AgentsCompaction {
  const built = decodeAgentsCompaction(options);
  if (E.isLeft(built)) throw new CcError(built.left);
  return built.right;
}

/**
 * Options of {@link AgentsCompaction.session}.
 *
 * @example
 * import { MemorySession } from "@openai/agents";
 * const session = cc.session(new MemorySession(), { reserveTokens: 600 }); // instructions + the longest new input
 */
export interface SessionViewOptions {
  /**
   * Tokens the view leaves free for what the run adds to it: the agent's instructions and the new
   * input (the session sees neither). The view is compacted to `maxTokens − reserveTokens`.
   * @default 0
   */
  readonly reserveTokens?: number;
}

/** io-ts codec of {@link SessionViewOptions} (closed). */
export const SessionViewOptionsCodec = objectCodec("SessionViewOptions", {}, { reserveTokens: intIn(0, 100_000_000) });

const decodeSessionOptions = decodeWith(SessionViewOptionsCodec, "InvalidOptions", "session options");

/**
 * The input without result items whose call is not before them (a model must never get a tool
 * result without its call), and a warning for each one left out.
 */
function withoutOrphans(items: readonly AgentInputItem[]): {
  readonly items: readonly AgentInputItem[];
  readonly dropped: readonly AdapterWarning[];
} {
  const calls = new Set<string>();
  const dropped: AdapterWarning[] = [];
  const kept: AgentInputItem[] = [];
  items.forEach((item, index) => {
    const k = itemKind(item);
    if (k.kind === "call") calls.add(k.callId);
    if (k.kind === "result" && !calls.has(k.callId)) {
      dropped.push({
        _tag: "OrphanedResultDropped",
        index,
        callId: k.callId,
        message: `input item ${index} answers call ${JSON.stringify(k.callId)}, which is not before it; left out of the model input`,
      });
      return;
    }
    kept.push(item);
  });
  return dropped.length === 0 ? { items, dropped } : { items: kept, dropped };
}

function build(o: AgentsCompactionOptions): AgentsCompaction {
  // The decoder guarantees exactly one of the two.
  const manager = o.manager ?? createContextManager({ maxTokens: o.maxTokens ?? 0 });
  const countInstructions = o.countInstructions ?? true;
  let last: CompactionReport | undefined;

  const deliver = async (report: CompactionReport): Promise<void> => {
    last = report;
    if (o.onReport === undefined) return;
    let warning: AdapterWarning | undefined;
    try {
      await o.onReport(report);
    } catch (e) {
      warning = { _tag: "ReportCallbackFailed", message: `onReport threw: ${errorText(e)}` };
    }
    if (warning !== undefined) last = { ...report, warnings: [...report.warnings, warning] };
  };

  const run = async (
    all: readonly AgentInputItem[],
    instructions: string | undefined,
    source: CompactionSource,
    reserveTokens: number,
  ): Promise<E.Either<ContextError, CompactedItems>> => {
    const { items, dropped } = withoutOrphans(all);
    const base = itemsToMessages(items, countInstructions ? instructions : undefined);
    // A session's stored history is the prefix of the next model input, not its tail: a sentinel
    // (an empty user message mapping to no item) stands for the input the run will add, so the
    // newest stored items are not pinned, and `reserveTokens` are left for that input.
    const conversion =
      source === "session"
        ? {
            ...base,
            messages: [...base.messages, { role: "user" as const, content: "" }],
            sources: [...base.sources, []],
          }
        : base;
    const budget = source === "session" ? Math.max(1, manager.limits.maxTokens - reserveTokens) : undefined;
    // Kept items map back to the caller's objects: the turn never rewrites one.
    const r = await manager.compactTE(
      conversion.messages,
      budget === undefined ? { rewrite: false } : { maxTokens: budget, rewrite: false },
    )();
    if (E.isLeft(r)) return r;
    const turn: TurnResult = r.right;
    const back = messagesToItems(turn.messages, conversion, items);
    const report: CompactionReport = {
      source,
      turn,
      itemsBefore: all.length,
      itemsAfter: back.items.length,
      added: back.added,
      warnings: dropped,
    };
    await deliver(report);
    return E.right({
      items: back.items,
      ...(instructions === undefined ? {} : { instructions }),
      report: last ?? report,
    });
  };

  const compactItems: AgentsCompaction["compactItems"] =
    (items, instructions, source = "call") =>
    () =>
      run(items, instructions, source, 0);

  const filter = async ({ modelData }: { readonly modelData: ModelInputData }): Promise<ModelInputData> => {
    const r = await compactItems(modelData.input, modelData.instructions, "filter")();
    if (E.isLeft(r)) throw new CcError(r.left);
    return {
      input: [...r.right.items],
      ...(modelData.instructions === undefined ? {} : { instructions: modelData.instructions }),
    };
  };
  // The filter never mutates an item, so the SDK may pass the originals (kept items keep their identity).
  const callModelInputFilter: CallModelInputFilter = Object.assign(filter, { preserveInputIdentity: true });

  const compactView =
    (reserveTokens: number) =>
    async (items: readonly AgentInputItem[]): Promise<AgentInputItem[]> => {
      const r = await run(items, undefined, "session", reserveTokens);
      if (E.isLeft(r)) throw new CcError(r.left);
      return [...r.right.items];
    };

  return {
    callModelInputFilter,
    session: (inner, options = {}) => {
      const decoded = decodeSessionOptions(options);
      if (E.isLeft(decoded)) throw new CcError(decoded.left);
      return compactingSession(inner, compactView(decoded.right.reserveTokens ?? 0));
    },
    // `maxHits` is how many hits a search returns when the model gives no `k`; a call may ask for up to 50 (or that many).
    tools: contextTools(manager, {
      defaultK: o.maxHits ?? 5,
      maxHits: Math.max(50, o.maxHits ?? 5),
      maxExpandChars: o.maxExpandChars ?? 8000,
    }),
    compactItems,
    lastReport: () => last,
  };
}
