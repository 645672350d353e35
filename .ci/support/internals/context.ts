/**
 * What the tests and benchmarks reach inside @cc/context: its building blocks, imported from its sources.
 * Private (this package is never published); `@cc/context/internal` holds only what sibling packages import.
 *
 * @module @cc/test-support/context
 */
export {
  decide,
  initialPolicyState,
  settle,
  thresholds,
  type CompactionOutcome,
  type PolicyState,
} from "../../../packages/context/src/policy/decide.js";
export {
  estimateCost,
  inputCost,
  rewriteCharge,
  type InputBill,
} from "../../../packages/context/src/policy/cost-model.js";
export { withoutCaching } from "../../../packages/context/src/policy/prices.js";
export {
  decodePolicy,
  DEFAULT_CYCLE_CENTRE,
  DEFAULT_CYCLE_CENTRES,
  defaultCycleCentre,
  hasPromptCaching,
  type PolicySettings,
} from "../../../packages/context/src/policy/settings.js";
export { digestOf, stablePrefixTokens } from "../../../packages/context/src/policy/rendering.js";
export { decodeSnapshot } from "../../../packages/context/src/policy/snapshot.js";
export { shorterTails, targetTokens } from "../../../packages/context/src/manager.js";
