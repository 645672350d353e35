/**
 * Importance demo: score a generated agent context, print the eviction order, then compact it
 * to half its size and print the eviction report.
 *
 *   pnpm demo
 */
import { compact, estimatedTokens, formatEvictionReport, rank, score, type Segment } from "@cc/importance";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const MIN = 60_000;

/** A deterministic little context: what an agent typically holds after a few tool-using turns. */
function generateContext(): Segment[] {
  const kinds = ["tool_result", "agent_reply", "tool_call", "user_input"] as const;
  const out: Segment[] = [
    {
      id: "system",
      content: "You are a coding agent…",
      tokenCost: 350,
      createdAt: NOW - 240 * MIN,
      pinned: true,
      kind: "system",
    },
  ];
  let x = 7;
  const next = (m: number): number => (x = (x * 48271) % 2147483647) % m;
  for (let i = 1; i <= 14; i++) {
    const kind = kinds[i % kinds.length]!;
    const ageMin = 240 - i * 16 + next(10);
    const tokens = kind === "tool_result" ? 400 + next(3600) : 40 + next(400);
    out.push({
      id: `${kind}#${i}`,
      content: "",
      tokenCost: tokens,
      createdAt: NOW - ageMin * MIN,
      lastAccessed: NOW - Math.max(0, ageMin - next(60)) * MIN,
      accessCount: next(6),
      kind,
    });
  }
  out.push({
    id: "user_input#current",
    content: "Fix the failing test in parser.ts",
    tokenCost: 60,
    createdAt: NOW,
    pinned: true,
    kind: "user_input",
  });
  return out;
}

const options = { now: () => NOW };
const segments = generateContext();
const pad = (s: string | number, n: number): string => String(s).padStart(n);

console.log("Eviction order (lowest importance first):\n");
console.log(
  `${"#".padStart(3)}  ${"segment".padEnd(20)} ${pad("score", 6)} ${pad("tokens", 6)} ${pad("idle", 7)} ${pad("reads", 5)}`,
);
rank(segments, options).forEach((s, i) => {
  const v = score(s, options);
  const idle = s.pinned === true ? "pinned" : `${Math.round((NOW - (s.lastAccessed ?? s.createdAt ?? NOW)) / MIN)} min`;
  console.log(
    `${pad(i + 1, 3)}  ${s.id.padEnd(20)} ${pad(Number.isFinite(v) ? v.toFixed(3) : "∞", 6)} ${pad(estimatedTokens(s), 6)} ${pad(idle, 7)} ${pad(s.accessCount ?? 0, 5)}`,
  );
});

const before = segments.reduce((sum, s) => sum + estimatedTokens(s), 0);
const target = { maxTokens: Math.floor(before / 2), minKeep: 4 };
const result = compact(segments, target, options);
console.log(`\nBudget ${target.maxTokens} tokens (half of ${before}), keep at least ${target.minKeep} segments:`);
console.log(`  evicted: ${result.evict.map((s) => s.id).join(", ")}`);
console.log(`  ${formatEvictionReport(segments.length, result.tokensBefore, result.keep.length, result.tokensAfter)}`);
console.log(
  `  budget met: ${result.budgetMet ? "yes" : "no"}; ${result.keep.length} segments stay, pinned ones included`,
);
