// Values the doc examples talk about without building them (type-checking only; see
// .ci/doc-examples.ts). Only the examples' program loads this file.
import type { TokenCounter } from "@cc/tokens";

declare global {
  const counter: TokenCounter;
}
