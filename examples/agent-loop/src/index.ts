/**
 * The agent-loop example: a deterministic session generator (reused by the retention benchmark).
 *
 * @module @cc/example-agent-loop
 */
export { generateSession, type SessionOptions, type Turn } from "./session-generator.js";
export { parseBudget, parsePolicy, DEFAULT_BUDGET, DEMO_POLICIES, type DemoPolicy } from "./settings.js";
