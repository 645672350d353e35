/**
 * The strategies a context manager can run — defined here once for the CLI, the demo, the
 * benchmarks and the framework adapters.
 *
 * @module strategy
 */

/**
 * `lcm`: summarise the older part of the conversation by escalation (detailed → bullets →
 * truncation) and keep a verbatim tail. `hierarchical`: evict the lowest-importance message units
 * into a searchable index and leave a note of what left (search/expand bring them back).
 */
export const STRATEGY_NAMES = ["hierarchical", "lcm"] as const;

/** One of {@link STRATEGY_NAMES}. */
export type StrategyName = (typeof STRATEGY_NAMES)[number];
