/**
 * The adapter: one object holding a context manager and the three ways into the AI SDK — a
 * `prepareStep` that compacts a step's messages when they reach the threshold (cached by message
 * prefix, so every step sees the same compacted prefix), the `search_context` / `expand_context`
 * tools over the manager's index, and a `LanguageModelMiddleware` whose `transformParams` never
 * lets a prompt over the budget reach the model.
 *
 * @module context
 */
import { createContextManager, type ContextManager } from "@cc/context";
import type { Message } from "@cc/messages";
import type { LanguageModelMiddleware, ModelMessage } from "ai";
import * as E from "fp-ts/lib/Either.js";
import { prefixCompactor, type SdkCompaction } from "./compact.js";
import { fromModelMessages, NOTE_OPTIONS_KEY, withoutOrphanedResults } from "./convert.js";
import {
  budgetExceeded,
  decodeAiSdkContextOptions,
  type AiSdkContextOptions,
  type AiSdkEvent,
  type AiSdkFailure,
} from "./options.js";
import { contextTools, type ContextTools } from "./tools.js";
import { CcError } from "@cc/validate";

type TransformParams = NonNullable<LanguageModelMiddleware["transformParams"]>;
type CallOptions = Parameters<TransformParams>[0]["params"];
/**
 * A message of a provider prompt (what a middleware sees), as the installed `ai` types it.
 *
 * @example const note: PromptMessage = { role: "user", content: [{ type: "text", text: "…" }] };
 */
export type PromptMessage = CallOptions["prompt"][number];

/**
 * What `prepareStep` reads of its argument (the SDK passes more; v6 and v7 both pass these).
 *
 * @example await cc.prepareStep({ messages, stepNumber: 0 });
 */
export interface PrepareStepInput {
  readonly messages: ModelMessage[];
  readonly stepNumber: number;
}

/**
 * The adapter built by {@link createAiSdkContext}.
 *
 * @example
 * const { prepareStep, middleware, tools } = createAiSdkContext({ maxTokens: 8000 });
 */
export interface AiSdkContext {
  /** The context manager every compaction runs through (its `maxTokens` is the budget). */
  readonly manager: ContextManager;
  /**
   * Pass as `prepareStep` to `generateText`, `streamText` or an `Agent`: returns `{ messages }`
   * compacted when the step's messages reach the threshold (and for every later step of a
   * compacted prefix, the same compacted prefix), `undefined` otherwise. Never rejects: a failed
   * compaction leaves the step unchanged and is reported to `onEvent`.
   */
  readonly prepareStep: (options: PrepareStepInput) => Promise<{ messages: ModelMessage[] } | undefined>;
  /**
   * The safety net, for `wrapLanguageModel({ model, middleware })`: a prompt over the budget is
   * compacted; one that still does not fit rejects the call with a `CcError`
   * (`BudgetExceeded`) instead of reaching the model. Budget = the prompt's messages as the
   * manager's counter counts them (tool definitions are not part of it).
   */
  readonly middleware: LanguageModelMiddleware;
  /** `search_context` and `expand_context`: spread into your `tools`. */
  readonly tools: ContextTools;
  /**
   * Compacts messages once (for example the history you persist between turns). Rejects only with
   * a `CcError`.
   */
  compact(messages: readonly ModelMessage[]): Promise<SdkCompaction<ModelMessage>>;
  /** Errors thrown by `onEvent` (caught; the newest 100). */
  readonly callbackFailures: readonly string[];
}

/** The note as an AI SDK user message, its seal (the view's id) in `providerOptions.cc.note`. */
const noteFor = (view: Message): ModelMessage & PromptMessage => ({
  role: "user",
  content: [{ type: "text", text: view.content }],
  ...(view.id === undefined ? {} : { providerOptions: { [NOTE_OPTIONS_KEY]: { note: view.id } } }),
});

function build(options: AiSdkContextOptions): AiSdkContext {
  const manager = options.manager ?? createContextManager({ maxTokens: options.maxTokens ?? 1 });
  const cacheSize = options.cacheSize ?? 32;
  const failures: string[] = [];
  const emit = (event: AiSdkEvent): void => {
    try {
      options.onEvent?.(event);
    } catch (e) {
      failures.push(`onEvent threw on ${event._tag}: ${e instanceof Error ? e.message : String(e)}`);
      if (failures.length > 100) failures.shift();
    }
  };
  const compactModel = prefixCompactor<ModelMessage>(manager, cacheSize, noteFor);
  const compactPrompt = prefixCompactor<PromptMessage>(manager, cacheSize, noteFor);

  const prepareStep = async ({
    messages,
    stepNumber,
  }: PrepareStepInput): Promise<{ messages: ModelMessage[] } | undefined> => {
    const r = await compactModel(messages);
    if (E.isLeft(r)) {
      emit({ _tag: "CompactionFailed", source: "prepareStep", stepNumber, error: r.left });
      return undefined;
    }
    for (const d of r.right.dropped)
      emit({ _tag: "OrphanedToolResultDropped", source: "prepareStep", stepNumber, ...d });
    if (r.right.turn?.compacted === true)
      emit({ _tag: "Compacted", source: "prepareStep", stepNumber, turn: r.right.turn });
    return r.right.changed ? { messages: [...r.right.messages] } : undefined;
  };

  const refuse = (error: AiSdkFailure): never => {
    emit({ _tag: "CompactionFailed", source: "middleware", error });
    throw new CcError(error);
  };

  const transformParams: TransformParams = async ({ params }) => {
    const maxTokens = manager.limits.maxTokens;
    const orphaned = withoutOrphanedResults(params.prompt).dropped.length > 0;
    if (!orphaned && manager.count(fromModelMessages(params.prompt)) <= maxTokens) return params;
    const r = await compactPrompt(params.prompt);
    if (E.isLeft(r)) return refuse(r.left);
    for (const d of r.right.dropped) emit({ _tag: "OrphanedToolResultDropped", source: "middleware", ...d });
    if (r.right.turn?.compacted === true) emit({ _tag: "Compacted", source: "middleware", turn: r.right.turn });
    if (r.right.tokens > maxTokens) return refuse(budgetExceeded(r.right.tokens, maxTokens));
    return { ...params, prompt: [...r.right.messages] };
  };

  return {
    manager,
    prepareStep,
    // "v3" satisfies both majors' types: ai v6 requires it, ai v7 accepts any version string.
    middleware: { specificationVersion: "v3", transformParams },
    tools: contextTools(manager, options.maxExpandChars ?? 8000),
    compact: async (messages) => {
      const r = await compactModel(messages);
      if (E.isLeft(r)) throw new CcError(r.left);
      return r.right;
    },
    callbackFailures: failures,
  };
}

/**
 * Builds the adapter (fp-ts style): `Left<InvalidOptions>` names every bad option.
 *
 * @example
 * import { generateText } from "ai";
 * const cc = decodeAiSdkContext({ maxTokens: 8000 });
 * if (cc._tag === "Right") await generateText({ model, messages, prepareStep: cc.right.prepareStep });
 */
export function decodeAiSdkContext(options: unknown): E.Either<AiSdkFailure, AiSdkContext> {
  const decoded = decodeAiSdkContextOptions(options);
  return E.isLeft(decoded) ? decoded : E.right(build(decoded.right));
}

/**
 * Builds the adapter. Invalid options throw a `CcError` at once (a programming error,
 * reported before any step); after that, failures are values or typed rejections.
 *
 * @example
 * import { generateText, stepCountIs, wrapLanguageModel } from "ai";
 * const cc = createAiSdkContext({ maxTokens: 8000 });
 * const result = await generateText({
 *   model: wrapLanguageModel({ model, middleware: cc.middleware }),
 *   tools: { ...cc.tools, ...myTools },
 *   prepareStep: cc.prepareStep,
 *   stopWhen: stepCountIs(20),
 *   messages,
 * });
 */
export function createAiSdkContext(options: AiSdkContextOptions): AiSdkContext {
  const r = decodeAiSdkContext(options);
  if (E.isLeft(r)) throw new CcError(r.left);
  return r.right;
}
