/**
 * Helpers of @cc/context for the benchmarks and tests: the pure policy pieces behind the public
 * entry points (state machine, cost arithmetic, rendering, snapshot codec).
 *
 * @module @cc/context/internal
 */
export { decide, initialPolicyState, settle, thresholds, type CompactionOutcome, type PolicyState } from "../policy/decide.js";
export { estimateCost, inputCost, rewriteCharge, type InputBill } from "../policy/cost-model.js";
export { withoutCaching } from "../policy/prices.js";
export { decodePolicy, DEFAULT_CYCLE_CENTRE, DEFAULT_CYCLE_CENTRES, defaultCycleCentre, hasPromptCaching, type PolicySettings } from "../policy/settings.js";
export { digestOf, stablePrefixTokens } from "../policy/rendering.js";
export { decodeSnapshot } from "../policy/snapshot.js";
export { shorterTails, targetTokens } from "../manager.js";
