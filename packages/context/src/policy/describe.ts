/**
 * One report line per decision, shared by the CLI and the demo.
 *
 * @module policy/describe
 */
import type { CompactionDecision } from "./decide.js";

const why: Readonly<Record<string, string>> = {
  Forced: "forced",
  HardThreshold: "hard threshold reached",
  Threshold: "trigger reached",
  CostPays: "the saving repays the cache rewrite",
  BelowTrigger: "below the trigger",
  MinInterval: "too soon after the last compaction",
  BelowBreakEven: "below the break-even size: a rewrite would cost more than it saves",
  HorizonTooShort: "too few turns left to repay the cache rewrite",
  SavingTooSmall: "it would save too little",
  NothingToCompact: "nothing but pinned messages and the tail",
};

const usd = (n: number): string => `$${n.toFixed(4)}`;

/**
 * A one-line description of a policy decision (no trailing newline).
 *
 * @example describeDecision({ _tag: "Skipped", reason: "SavingTooSmall", tokens: 7000, saved: 300, minimum: 1024 })
 * // "skipped: it would save too little (300 < 1024 tokens)"
 */
export function describeDecision(d: CompactionDecision): string {
  switch (d._tag) {
    case "Compacted": {
      const cost =
        d.estimate === undefined
          ? ""
          : `; rewrite ${usd(d.estimate.rewriteCost)} vs ${usd(d.estimate.savingPerTurn)}/turn saved`;
      const llm =
        d.summariser === "cooling-down"
          ? "; summariser cooling down (truncated)"
          : d.summariser === "disabled"
            ? "; summariser disabled (truncated)"
            : "";
      return `compacted: ${why[d.reason] ?? d.reason} (${d.tokensBefore} → ${d.tokensAfter} tokens, target ${d.targetTokens})${cost}${llm}`;
    }
    case "Waited":
      return `waited: ${why[d.reason] ?? d.reason} (${d.tokens} tokens, ${d.estimate === undefined ? "trigger" : "break-even"} ${d.triggerTokens})`;
    case "Skipped":
      return `skipped: ${why[d.reason] ?? d.reason} (${d.saved} < ${d.minimum} tokens)`;
  }
}
