// Values the doc examples talk about without building them (type-checking only; see
// .ci/doc-examples.ts). Only the examples' program loads this file. The names here mean the same in
// every package; a value of one package's own (a framework's `messages`, a session `store`) lives in
// .ci/doc-examples/<package>.d.ts.
import type { ContextManager } from "../../packages/context/src/index.js";
import type { Segment } from "../../packages/importance/src/index.js";
import type { Message, Provider } from "../../packages/messages/src/index.js";
import type { SegmentIndex } from "../../packages/search/src/index.js";
import type { TokenCounter } from "../../packages/tokens/src/index.js";

declare global {
  /** A token counter. */
  const counter: TokenCounter;
  /** A conversation in the engine's message shape. */
  const history: readonly Message[];
  /** An index of evicted context. */
  const index: SegmentIndex;
  /** A context manager. */
  const manager: ContextManager;
  /** Scored segments of a conversation. */
  const segments: readonly Segment[];
  /** A model provider. */
  const provider: Provider;
}
