/**
 * Helpers of @cc/context for the benchmarks and tests: the pure policy pieces behind the public
 * entry points (state machine, cost arithmetic, rendering, snapshot codec).
 *
 * @module @cc/context/internal
 */
export {
  decide,
  initialPolicyState,
  isAuthFailure,
  minimumSaving,
  settle,
  thresholds,
  type CompactionOutcome,
  type PolicyState,
  type Plan,
  type SummariserState,
  type TurnInput,
} from "../policy/decide.js";
export { estimateCost, inputCost, rewriteCharge, type CostInput, type CostVerdict, type InputBill } from "../policy/cost-model.js";
export { DEFAULT_PRICE_SHEET, withoutCaching, type PriceSheetName } from "../policy/prices.js";
export {
  decodePolicy,
  DEFAULT_CYCLE_CENTRE,
  DEFAULT_CYCLE_CENTRES,
  defaultCycleCentre,
  hasPromptCaching,
  POLICY_KINDS,
  PolicyOptionsCodec,
  type PolicyKind,
  type PolicySettings,
} from "../policy/settings.js";
export { applyRendering, digestOf, renderingOf, stablePrefixTokens, type Rendering } from "../policy/rendering.js";
export { decodeSnapshot, ManagerSnapshotCodec } from "../policy/snapshot.js";
export { shorterTails, targetTokens } from "../manager.js";
export { buildCore, ContextToolOptionsCodec, decodeContextToolOptions } from "../tools.js";
