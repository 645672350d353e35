/**
 * The shape every framework comparison in `bench/adapters.bench.ts` plugs into: a contender takes
 * one transcript in our message model and a token budget, runs either the framework's built-in
 * trimming/summarising or our adapter on the framework's own message type, and returns what the
 * model would be sent, converted back to our message model. The runner measures every contender
 * the same way (tokens sent with the exact counter, units split, re-access retention), so a
 * contender only has to be faithful to its framework.
 */
import type { Message } from "@cc/messages";

/** One way a framework user could keep a conversation under a budget. */
export interface Contender {
  /** The framework, e.g. `"ai-sdk"`, `"langchain"`, `"openai-agents"`, `"mastra"`. */
  readonly framework: string;
  /** What runs: e.g. `"pruneMessages (built-in)"` or `"@cc/ai-sdk prepareStep"`. */
  readonly name: string;
  /** `true` for the framework's own built-in, `false` for our adapter. */
  readonly builtIn: boolean;
  /**
   * The prompt the model would receive for `history` under `maxTokens` (o200k tokens), as our
   * messages. Messages kept from `history` must be returned unchanged (same role, content, calls,
   * ids); a summary note is a new message.
   */
  readonly run: (history: readonly Message[], maxTokens: number) => Promise<readonly Message[]>;
}
