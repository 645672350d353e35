/**
 * The Mastra `Processor` that keeps an agent's context under its budget with `@cc/context`:
 * `processInputStep` compacts the stored history the step reads (the messages memory loaded;
 * storage is never touched and the current run's messages are never removed), `processLLMRequest`
 * compacts the provider prompt when it is still over the budget (the last step — the pending tool
 * call and its result — always stays), and `processToolResult` writes an oversized tool result to
 * the index as it arrives and replaces it by a pointer `expand_context` resolves.
 *
 * @module processor
 */
import {
  decodeContextManager,
  type CompactCallOptions,
  type ContextError,
  type ContextManager,
  type TurnResult,
} from "@cc/context";
import { CcError, type CcErrorOf, invalid } from "@cc/validate";
import { summaryMessage, type Message } from "@cc/messages";
import type { MastraDBMessage, MessageList } from "@mastra/core/agent/message-list";
import type {
  ProcessInputStepArgs,
  ProcessInputStepResult,
  ProcessLLMRequestArgs,
  ProcessLLMRequestResult,
  Processor,
  ProcessToolResultArgs,
} from "@mastra/core/processors";
import * as E from "fp-ts/lib/Either.js";
import { mapBack, NO_ORIGIN, type Converted } from "./convert/converted.js";
import { fromMastraDBMessages, withParts } from "./convert/db.js";
import { fromLLMPrompt, promptNote, type LLMPrompt } from "./convert/prompt.js";
import { decodeCompactionProcessorOptions, type CompactionProcessorOptions, type DecodedOptions } from "./options.js";
import type { AdapterWarning, CompactionHook, CompactionReport } from "./report.js";
import { evictToolResult } from "./tool-result.js";
import { CONTEXT_TOOL_NAMES } from "./tools.js";

/**
 * Tag of the system message that carries the note when the prompt stage does not run.
 *
 * @example messageList.getSystemMessages(NOTE_TAG) // [{ role: "system", content: "Summary of the earlier conversation …" }]
 */
export const NOTE_TAG = "cc-compaction-note";
const NOTE_STATE = "ccCompactionNote";

/**
 * The processor: a Mastra input and output processor, with its context manager and last report.
 *
 * @example
 * const compaction: CompactionProcessor = createCompactionProcessor({ maxTokens: 8000 });
 * compaction.lastReport?.turn?.tokensAfter;
 */
export interface CompactionProcessor extends Processor {
  /** The context manager every hook runs its turns through (its index holds what was evicted). */
  readonly manager: ContextManager;
  /** The options, decoded, defaults filled in. */
  readonly settings: DecodedOptions;
  /** The report of the last hook that changed something or failed. */
  readonly lastReport: CompactionReport | undefined;
  processInputStep(args: ProcessInputStepArgs): Promise<ProcessInputStepResult | undefined>;
  processLLMRequest(args: ProcessLLMRequestArgs): Promise<ProcessLLMRequestResult>;
  processToolResult(args: ProcessToolResultArgs): Promise<MessageList | undefined>;
}

/**
 * Invalid processor options: the typed failure (`InvalidOptions`) in an `Error`.
 *
 * @example
 * try { createCompactionProcessor({ maxTokens: 0 }); } catch (e) { if (e instanceof CompactionProcessorError) console.error(e.error.problems); }
 *
 * @deprecated Use `CcError` from @cc/validate (this name is the same class; `instanceof` keeps working); kept one release.
 */
export const CompactionProcessorError = CcError as unknown as CcErrorOf<ContextError>;
/** @deprecated Use `CcError` from @cc/validate (the one error class of @cc); kept one release. */
export type CompactionProcessorError = InstanceType<typeof CompactionProcessorError>;

const systemText = (m: { readonly content: unknown }): string =>
  typeof m.content === "string"
    ? m.content
    : Array.isArray(m.content)
      ? m.content
          .map((p: unknown) =>
            typeof p === "object" && p !== null && "text" in p ? String((p as { text: unknown }).text) : "",
          )
          .join("\n")
      : "";

/** The prompt with `note` (the manager's sealed note message) after its leading system messages. */
function promptWithNote(prompt: LLMPrompt, note: Message | undefined): LLMPrompt {
  if (note === undefined) return prompt;
  const at = prompt.findIndex((m) => m.role !== "system");
  const i = at === -1 ? prompt.length : at;
  return [...prompt.slice(0, i), promptNote(note.content, note), ...prompt.slice(i)];
}

/** Our messages from the first one derived from stored message `first` on (the current run). */
function derivedFrom(converted: Converted, first: number): number {
  const j = converted.origin.findIndex((o) => o >= first);
  return j === -1 ? 0 : converted.messages.length - j;
}

/**
 * Builds the processor, or the typed problems of `options`.
 *
 * @example
 * import { Agent } from "@mastra/core/agent";
 * const p = decodeCompactionProcessor({ maxTokens: 8000 });
 * if (p._tag === "Right") new Agent({ id: "a", name: "a", instructions: "…", model, inputProcessors: [p.right], outputProcessors: [p.right] });
 */
export function decodeCompactionProcessor(options: unknown): E.Either<ContextError, CompactionProcessor> {
  const decoded = decodeCompactionProcessorOptions(options);
  if (E.isLeft(decoded)) return decoded;
  const settings = decoded.right;
  // The manager checks what no single field shows (resume needs a policy, a policy's shares agree).
  const made = decodeContextManager(settings.context);
  if (E.isLeft(made))
    return E.left(invalid("InvalidOptions", "mastra compaction options", made.left.problems, made.left.more));
  // The one manager every hook runs its turns through: a hook that needs another tail or budget
  // says so per call (the policy's state stays one conversation's).
  const manager = made.right;
  const { maxTokens, preserveLast } = manager.limits;
  let lastReport: CompactionReport | undefined;

  const report = async (
    hook: CompactionHook,
    stepNumber: number,
    fields: Omit<CompactionReport, "hook" | "stepNumber">,
  ): Promise<void> => {
    let r: CompactionReport = { hook, stepNumber, ...fields };
    if (settings.onCompaction !== undefined) {
      try {
        await settings.onCompaction(r);
      } catch (e) {
        const warning: AdapterWarning = { _tag: "CallbackFailed", message: e instanceof Error ? e.message : String(e) };
        r = { ...r, warnings: [...r.warnings, warning] };
      }
    }
    lastReport = r;
  };
  const turnOf = async (
    history: readonly Message[],
    hook: CompactionHook,
    stepNumber: number,
    call: CompactCallOptions,
  ): Promise<TurnResult | undefined> => {
    // Kept messages map back to Mastra's objects: the turn never rewrites one.
    const r = await manager.compactTE(history, { ...call, rewrite: false })();
    if (E.isLeft(r)) {
      await report(hook, stepNumber, { warnings: [{ _tag: "CompactionFailed", error: r.left }] });
      return undefined;
    }
    if (r.right.compacted || r.right.warnings.length > 0)
      await report(hook, stepNumber, { turn: r.right, warnings: r.right.warnings });
    return r.right;
  };

  const processor: CompactionProcessor = {
    id: settings.id,
    name: "@cc/mastra compaction",
    manager,
    settings,
    get lastReport() {
      return lastReport;
    },

    async processInputStep(args) {
      const { messages, messageList, state, stepNumber } = args;
      const carried = typeof state[NOTE_STATE] === "string" ? (state[NOTE_STATE] as string) : undefined;
      const carriedNote = carried === undefined ? undefined : manager.noteMessage(carried);
      const ownNote = carriedNote?.content;
      const systems = messageList
        .getAllSystemMessages()
        .map(systemText)
        .filter((s) => s !== ownNote);
      const base = fromMastraDBMessages(messages, systems);
      // The note of an earlier step of this request goes in after the system prompts, so this
      // step's note folds it in (one note names everything evicted so far).
      const converted: Converted =
        carriedNote === undefined
          ? base
          : {
              messages: [
                ...base.messages.slice(0, systems.length),
                carriedNote,
                ...base.messages.slice(systems.length),
              ],
              origin: [...base.origin.slice(0, systems.length), NO_ORIGIN, ...base.origin.slice(systems.length)],
              parts: [
                ...(base.parts ?? []).slice(0, systems.length),
                undefined,
                ...(base.parts ?? []).slice(systems.length),
              ],
            };
      // Messages of the current run (not yet saved) are never removed: memory saves them later.
      // They are set aside and the stored history before them is compacted to what they leave of
      // the budget (a preserved tail may shrink to fit; these never do).
      const firstNew = messages.findIndex((m) => messageList.isNewMessage(m));
      const cut = converted.messages.length - (firstNew === -1 ? 0 : derivedFrom(converted, firstNew));
      const current = converted.messages.slice(cut);
      const stored = converted.messages.slice(0, cut);
      // The current run is the newest part of the conversation: it counts towards preserveLast.
      const tail = current.length === 0 ? Math.max(preserveLast, 1) : Math.max(0, preserveLast - current.length);
      if (stored.length - systems.length <= (current.length === 0 ? tail : 0)) return undefined;
      const room =
        current.length === 0
          ? undefined
          : Math.max(
              1,
              maxTokens -
                (manager.count([...stored.slice(0, systems.length), ...current]) -
                  manager.count(stored.slice(0, systems.length))),
            );
      const turn = await turnOf(stored, "processInputStep", stepNumber, {
        preserveLast: tail,
        ...(room === undefined ? {} : { maxTokens: room }),
      });
      if (turn === undefined || !turn.compacted) return undefined;
      const kept: MastraDBMessage[] = mapBack(
        messages,
        converted,
        [...turn.messages, ...current],
        () => undefined,
        withParts,
      );
      state[NOTE_STATE] = turn.summary;
      if (args.llmRequestStage !== true) {
        messageList.clearSystemMessages(NOTE_TAG);
        messageList.addSystem(summaryMessage(turn.summary).content, NOTE_TAG);
      }
      return { messages: kept };
    },

    async processLLMRequest(args) {
      const carried = typeof args.state[NOTE_STATE] === "string" ? (args.state[NOTE_STATE] as string) : undefined;
      const prompt = promptWithNote(
        args.prompt,
        carried === undefined || carried === "" ? undefined : manager.noteMessage(carried),
      );
      const converted = fromLLMPrompt(prompt);
      const tail = Math.max(1, preserveLast);
      let turn = await turnOf(converted.messages, "processLLMRequest", args.stepNumber, { preserveLast: tail });
      // The prompt is what the provider receives: when the preserved tail alone keeps it over the
      // budget, the tail shrinks to the last step (the pending call and its result stay). Forced:
      // the turn just decided belongs to this request, and a policy's interval must not keep the
      // prompt over the budget. (Not `fitTail`: it also shortens a tail that is within the budget
      // but above the target, overriding a policy that chose to wait.)
      // A retry that compacts nothing more (the last step alone is over the budget) leaves the first turn's prompt.
      if (turn !== undefined && !turn.budgetMet && tail > 1) {
        const shorter = await turnOf(converted.messages, "processLLMRequest", args.stepNumber, {
          preserveLast: 1,
          force: true,
        });
        if (shorter?.compacted === true) turn = shorter;
      }
      if (turn === undefined || !turn.compacted) return prompt === args.prompt ? undefined : { prompt };
      return { prompt: mapBack(prompt, converted, turn.messages, promptNote) };
    },

    async processToolResult(args) {
      // The context tools' own results are never evicted: expanding an original must bring it back.
      if (
        settings.toolResultMaxTokens === 0 ||
        args.providerExecuted === true ||
        CONTEXT_TOOL_NAMES.includes(args.toolName)
      )
        return undefined;
      const r = await evictToolResult(manager, settings.toolResultMaxTokens, args);
      if (r === undefined) return undefined;
      if (E.isLeft(r)) {
        await report("processToolResult", args.stepNumber, { warnings: [r.left] });
        return undefined;
      }
      await report("processToolResult", args.stepNumber, { evictedToolResult: r.right, warnings: [] });
      return args.messageList;
    },
  };
  return E.right(processor);
}

/**
 * Creates the compaction processor; use it as an input processor (history and prompt) and as an
 * output processor (oversized tool results). Invalid options throw a
 * `CcError` at once; after that, no hook ever throws: a failed compaction
 * lets the messages through unchanged and is reported (`lastReport`, `onCompaction`).
 *
 * @example
 * import { Agent } from "@mastra/core/agent";
 * const compaction = createCompactionProcessor({ maxTokens: 8000 });
 * const agent = new Agent({ id: "a", name: "a", instructions: "…", model, memory,
 *   tools: { ...contextTools(compaction.manager) }, inputProcessors: [compaction], outputProcessors: [compaction] });
 */
export function createCompactionProcessor(options: CompactionProcessorOptions): CompactionProcessor {
  const p = decodeCompactionProcessor(options);
  if (E.isLeft(p)) throw new CcError(p.left);
  return p.right;
}
