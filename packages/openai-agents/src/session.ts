/**
 * A `Session` wrapper that compacts on read. `getItems()` returns the stored history compacted to
 * the manager's budget (kept items are the stored objects, plus one summary note); `addItems`,
 * `popItem`, `clearSession` and `getSessionId` go straight to the wrapped session, so storage
 * always keeps every item and the compaction can be redone with another budget at any time.
 *
 * Why on read and not on `addItems`: a rewrite of the stored history on append is not atomic in
 * most stores and would lose the originals; evicted units stay recoverable anyway through
 * `expand_context`. The wrapper forwards `applyHistoryMutations` (a call replaced by id) and
 * `prepareHistoryItemForModelInput`, and deliberately not the suffix-transaction capability,
 * whose checks compare stored items with what `getItems()` returns.
 *
 * @module session
 */
import type { AgentInputItem, RunContextAwareSession, Session, SessionHistoryRewriteArgs } from "@openai/agents";

/**
 * The compacted view of stored items (rejects with a `CcError`).
 *
 * @example
 * const view: CompactView = async (items) => [...items]; // the identity view
 */
export type CompactView = (items: readonly AgentInputItem[]) => Promise<AgentInputItem[]>;

/**
 * A session whose `getItems` is compacted; `inner` is the wrapped session (every stored item).
 *
 * @example
 * import { MemorySession } from "@openai/agents";
 * const session = cc.session(new MemorySession());
 * const all = await session.inner.getItems(); // the full stored history
 */
export interface CompactingSession extends Session {
  /** The wrapped session: its `getItems()` returns the full stored history. */
  readonly inner: Session;
}

const acceptsRunContext = (s: Session): s is RunContextAwareSession =>
  (s as Partial<RunContextAwareSession>).acceptsRunContext === true;

/**
 * Wraps `inner` so `getItems(limit)` returns `view(inner.getItems(limit))` — the limit applies to
 * the stored items first, then the window is compacted.
 *
 * @example
 * import { MemorySession } from "@openai/agents";
 * const session = compactingSession(new MemorySession(), async (items) => [...items]); // usually cc.session(inner)
 */
export function compactingSession(inner: Session, view: CompactView): CompactingSession {
  const ctx = acceptsRunContext(inner);
  const base = {
    inner,
    ...(ctx ? { acceptsRunContext: true as const } : {}),
    getSessionId: () => inner.getSessionId(),
    getItems: async (limit?: number, runContext?: unknown): Promise<AgentInputItem[]> => {
      const stored =
        ctx && runContext !== undefined
          ? await inner.getItems(limit, runContext as never)
          : await inner.getItems(limit);
      return view(stored);
    },
    addItems: (items: AgentInputItem[], runContext?: unknown): Promise<void> =>
      ctx && runContext !== undefined ? inner.addItems(items, runContext as never) : inner.addItems(items),
    popItem: (runContext?: unknown): Promise<AgentInputItem | undefined> =>
      ctx && runContext !== undefined
        ? (inner as RunContextAwareSession).popItem(runContext as never)
        : inner.popItem(),
    clearSession: (runContext?: unknown): Promise<void> =>
      ctx && runContext !== undefined
        ? (inner as RunContextAwareSession).clearSession(runContext as never)
        : inner.clearSession(),
  };
  const rewrite = (inner as Partial<{ applyHistoryMutations(args: SessionHistoryRewriteArgs): Promise<void> | void }>)
    .applyHistoryMutations;
  const prepare = inner.prepareHistoryItemForModelInput;
  return {
    ...base,
    ...(typeof rewrite === "function"
      ? { applyHistoryMutations: (args: SessionHistoryRewriteArgs) => rewrite.call(inner, args) }
      : {}),
    ...(typeof prepare === "function"
      ? { prepareHistoryItemForModelInput: (item: AgentInputItem) => prepare.call(inner, item) }
      : {}),
  };
}
