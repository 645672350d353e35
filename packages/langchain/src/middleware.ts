/**
 * The LangChain.js v1 compaction middleware (`createMiddleware` from `langchain`): `wrapModelCall`
 * sends the model a pair-safe, budgeted view; `beforeModel` (mode "state") persists the compacted
 * history with `RemoveMessage(REMOVE_ALL_MESSAGES)`; `wrapToolCall` moves an oversized tool result
 * to the index as it arrives; `search_context` / `expand_context` bring evicted context back.
 *
 * @module middleware
 */
import type { ContextError, ContextManager, TurnResult } from "@cc/context";
import { CcError, invalid, type InvalidOptions } from "@cc/validate";
import { AIMessage, RemoveMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import * as E from "fp-ts/lib/Either.js";
import { createMiddleware } from "langchain";
import { fromLangChain, messageText, toLangChain, type LangChainView } from "./convert.js";
import {
  decodeCompactionMiddlewareOptions,
  isContextManager,
  type CallbackName,
  type CompactionHook,
  type CompactionMiddlewareError,
  type CompactionMiddlewareOptions,
  type ResolvedOptions,
} from "./options.js";
import { contextTools, EXPAND_TOOL, SEARCH_TOOL } from "./tools.js";

/**
 * The id of a `RemoveMessage` that clears the thread's messages (`REMOVE_ALL_MESSAGES` of
 * `@langchain/langgraph`, the same string; a test checks they agree).
 *
 * @example
 * import { RemoveMessage } from "@langchain/core/messages";
 * const update = { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...state.messages] }; // a node's state update: clear, then the compacted thread
 */
export const REMOVE_ALL_MESSAGES = "__remove_all__";

const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const callbackFailed = (o: ResolvedOptions, subject: CallbackName, message: string): void =>
  report(o, { _tag: "CallbackFailed", subject, problems: [{ path: subject, message }], more: 0, message });

/** Calls a user callback; a throw or rejection is reported to `onError` as `CallbackFailed`. */
async function safely(o: ResolvedOptions, subject: CallbackName, call: () => void | Promise<void>): Promise<void> {
  try {
    await call();
  } catch (e) {
    callbackFailed(o, subject, `${subject} threw: ${errorMessage(e)}`);
  }
}

/** Finds the manager of a thread: `undefined` when a factory failed (reported; tried again next time). */
type ManagerOf = (threadId: string | undefined) => ContextManager | undefined;

/** The manager given, or the factory's manager of each thread (made once per thread). */
function managers(o: ResolvedOptions): ManagerOf {
  const given = o.manager;
  if (isContextManager(given)) return () => given;
  const cache = new Map<string, ContextManager>();
  return (threadId) => {
    const key = threadId ?? "default";
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let made: unknown;
    try {
      made = given(key);
    } catch (e) {
      callbackFailed(o, "manager", `manager threw for thread ${JSON.stringify(key)}: ${errorMessage(e)}`);
      return undefined;
    }
    if (!isContextManager(made)) {
      callbackFailed(o, "manager", `manager returned no context manager for thread ${JSON.stringify(key)}`);
      return undefined;
    }
    cache.set(key, made);
    return made;
  };
}

/** Hands a failure to `onError`; an `onError` that throws falls back to `console.warn` (never lost). */
function report(o: ResolvedOptions, error: CompactionMiddlewareError): void {
  try {
    o.onError(error);
  } catch (e) {
    console.warn(`@cc/langchain: ${error.message} (and onError threw: ${errorMessage(e)})`);
  }
}

/**
 * Compacts `messages` (with the system message in front when given, so it counts against the
 * budget) and maps the result back to LangChain messages: kept ones are the originals, the note
 * is new. `undefined` when the manager refused the turn (reported).
 */
async function compactMessages(
  o: ResolvedOptions,
  manager: ContextManager,
  hook: CompactionHook,
  messages: readonly BaseMessage[],
  system: SystemMessage | undefined,
): Promise<{ readonly messages: BaseMessage[]; readonly turn: TurnResult } | undefined> {
  const withSystem = system === undefined ? messages : [system, ...messages];
  let view: LangChainView;
  let r: E.Either<ContextError, TurnResult>;
  try {
    view = fromLangChain(withSystem);
    // Kept messages map back to LangChain's objects: the turn never rewrites one.
    r = await manager.compactTE(view.messages, { rewrite: false })();
  } catch (e) {
    // A message that cannot be converted (tool arguments JSON cannot hold) or a manager that broke its contract.
    r = E.left(invalid("InvalidInput", hook, [`the turn threw: ${errorMessage(e)}`]));
    view = { messages: [], groups: [] };
  }
  if (E.isLeft(r)) {
    const message = `compaction in ${hook} failed: ${r.left._tag === "Aborted" ? "aborted" : r.left.message}`;
    report(o, {
      _tag: "CompactionFailed",
      subject: hook,
      problems: [{ path: hook, message }],
      more: 0,
      message,
      error: r.left,
    });
    return undefined;
  }
  const turn = r.right;
  const back = toLangChain(turn.messages, view);
  const out = system !== undefined && back[0] === system ? back.slice(1) : back;
  if (o.onTurn !== undefined) {
    const onTurn = o.onTurn;
    await safely(o, "onTurn", () => onTurn({ hook, turn }));
  }
  return { messages: out, turn };
}

const systemOf = (m: SystemMessage | undefined): SystemMessage | undefined =>
  m !== undefined && messageText(m) !== "" ? m : undefined;

const isSystem = (m: BaseMessage): boolean => m.type === "system" || m.type === "developer";

/**
 * The model's view before compaction. A system message among the conversation's messages is
 * folded into the system prompt (its text appended after the prompt's, in order; strict providers
 * accept a system message only first, and its instruction keeps its authority and is never
 * evicted); a `ToolMessage` answering no earlier tool call is left out and reported. Returns the
 * inputs themselves when there is nothing to change.
 */
function modelView(
  o: ResolvedOptions,
  messages: readonly BaseMessage[],
  system: SystemMessage | undefined,
): { readonly messages: readonly BaseMessage[]; readonly system: SystemMessage | undefined } {
  const calls = new Set<string>();
  const folded: BaseMessage[] = [];
  const kept: BaseMessage[] = [];
  messages.forEach((m, index) => {
    if (AIMessage.isInstance(m))
      for (const c of [...(m.tool_calls ?? []), ...(m.invalid_tool_calls ?? [])])
        if (typeof c.id === "string") calls.add(c.id);
    if (isSystem(m)) {
      folded.push(m);
      return;
    }
    if (ToolMessage.isInstance(m) && !calls.has(m.tool_call_id)) {
      const message = `messages[${index}]: tool result ${JSON.stringify(m.tool_call_id)} answers no earlier tool call; left out of the model call`;
      report(o, {
        _tag: "OrphanedToolResultDropped",
        subject: "wrapModelCall",
        problems: [{ path: `messages[${index}]`, index, message }],
        more: 0,
        message,
        toolCallId: m.tool_call_id,
        index,
      });
      return;
    }
    kept.push(m);
  });
  if (kept.length + folded.length === messages.length && folded.length === 0) return { messages, system };
  if (folded.length === 0) return { messages: kept, system };
  const extra = folded.map(messageText).filter((t) => t !== "");
  const base = system?.content;
  const content = Array.isArray(base)
    ? [...base, ...extra.map((text) => ({ type: "text" as const, text: `\n\n${text}` }))]
    : [...(base === undefined || base === "" ? [] : [base]), ...extra].join("\n\n");
  const merged = new SystemMessage({ content, ...(system?.id === undefined ? {} : { id: system.id }) });
  return { messages: kept, system: messageText(merged) === "" ? undefined : merged };
}

/** Moves an oversized tool result to the index (`manager.evictToolResult`); returns the stub message, or the original when it fits or cannot be written (reported). */
async function evictResult(
  o: ResolvedOptions,
  manager: ContextManager,
  result: ToolMessage,
  tool: string,
): Promise<ToolMessage> {
  const content: unknown = result.content;
  const textOnly =
    typeof content === "string" ||
    (Array.isArray(content) &&
      content.every((b: unknown) => typeof b === "object" && b !== null && (b as { type?: unknown }).type === "text"));
  if (!textOnly) return result;
  const r = await manager.evictToolResult(
    { toolCallId: result.tool_call_id, toolName: tool, content: messageText(result) },
    o.maxToolResultTokens === undefined ? {} : { maxTokens: o.maxToolResultTokens },
  );
  if (E.isLeft(r)) {
    const message = `the result of ${tool} (${result.tool_call_id}) stayed in the conversation: ${r.left._tag === "Aborted" ? "aborted" : r.left.message}`;
    report(o, {
      _tag: "ToolResultNotEvicted",
      subject: "wrapToolCall",
      problems: [{ path: r.left._tag === "IndexWriteFailed" ? "index" : "wrapToolCall", message }],
      more: 0,
      message,
      toolCallId: result.tool_call_id,
    });
    return result;
  }
  const evicted = r.right;
  if (evicted === undefined) return result;
  if (o.onToolResultEvicted !== undefined) {
    const cb = o.onToolResultEvicted;
    await safely(o, "onToolResultEvicted", () =>
      cb({ id: evicted.id, toolCallId: result.tool_call_id, tool, tokens: evicted.tokens }),
    );
  }
  return new ToolMessage({
    content: evicted.stub,
    tool_call_id: result.tool_call_id,
    ...(result.id === undefined ? {} : { id: result.id }),
    ...(result.name === undefined ? {} : { name: result.name }),
    ...(result.status === undefined ? {} : { status: result.status }),
    ...(result.artifact === undefined ? {} : { artifact: result.artifact }),
    ...(result.metadata === undefined ? {} : { metadata: result.metadata }),
    additional_kwargs: { ...result.additional_kwargs, cc_evicted: evicted.id },
    response_metadata: result.response_metadata,
  });
}

/** Builds the middleware from decoded options (see {@link compactionMiddleware}). */
function build(o: ResolvedOptions) {
  const managerOf = managers(o);
  // The system prompt of each thread's last model call, so `beforeModel` (which sees only the
  // thread's messages) counts it against the budget too.
  const lastSystem = new Map<string, SystemMessage | undefined>();
  return createMiddleware({
    name: "CcCompactionMiddleware",
    ...(o.tools ? { tools: contextTools(managerOf, { maxExpandChars: o.maxExpandChars }) } : {}),
    ...(o.mode === "state"
      ? {
          beforeModel: async (
            state: { messages: BaseMessage[] },
            runtime: { readonly configurable?: { readonly thread_id?: string } },
          ) => {
            const thread = runtime.configurable?.thread_id;
            const manager = managerOf(thread);
            if (manager === undefined) return undefined;
            const r = await compactMessages(
              o,
              manager,
              "beforeModel",
              state.messages,
              lastSystem.get(thread ?? "default"),
            );
            if (r === undefined || !r.turn.compacted) return undefined;
            return { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...r.messages] };
          },
        }
      : {}),
    wrapModelCall: async (request, handler) => {
      const thread = request.runtime.configurable?.thread_id;
      lastSystem.set(thread ?? "default", systemOf(request.systemMessage));
      const view = modelView(o, request.messages, systemOf(request.systemMessage));
      const system = view.system;
      const changed = view.messages !== request.messages;
      const withSystem =
        system === systemOf(request.systemMessage) || system === undefined ? {} : { systemMessage: system };
      const manager = managerOf(thread);
      const r =
        manager === undefined ? undefined : await compactMessages(o, manager, "wrapModelCall", view.messages, system);
      const messages = r?.messages ?? (changed ? [...view.messages] : undefined);
      return handler(
        messages === undefined && !("systemMessage" in withSystem)
          ? request
          : { ...request, ...(messages === undefined ? {} : { messages }), ...withSystem },
      );
    },
    ...(o.maxToolResultTokens !== 0
      ? {
          wrapToolCall: async (request, handler) => {
            const result = await handler(request);
            // The results of search_context / expand_context are never evicted (expanding would loop).
            const own = request.toolCall.name === SEARCH_TOOL || request.toolCall.name === EXPAND_TOOL;
            if (!ToolMessage.isInstance(result) || own) return result;
            const manager = managerOf(request.runtime.configurable?.thread_id);
            return manager === undefined ? result : evictResult(o, manager, result, request.toolCall.name);
          },
        }
      : {}),
  });
}

/**
 * The middleware {@link compactionMiddleware} returns (pass it in `createAgent({ middleware })`).
 *
 * @example
 * const middleware: CompactionMiddleware = compactionMiddleware({ manager });
 */
export type CompactionMiddleware = ReturnType<typeof build>;

/**
 * Creates the compaction middleware (fp-ts style): `Left<InvalidOptions>` names every bad option.
 *
 * @example
 * import { createAgent } from "langchain";
 * const m = decodeCompactionMiddleware({ manager, mode: "state" });
 * if (m._tag === "Right") createAgent({ model, tools, middleware: [m.right] });
 */
export function decodeCompactionMiddleware(options: unknown): E.Either<InvalidOptions, CompactionMiddleware> {
  const o = decodeCompactionMiddlewareOptions(options);
  return E.isLeft(o) ? o : E.right(build(o.right));
}

/**
 * The compaction middleware for `createAgent` (LangChain.js v1). Every model call gets a
 * pair-safe prompt within the manager's budget (the system prompt counted): a tool call never
 * loses its results, the note sits right after the system prompt, kept messages are the
 * originals. Invalid options throw a `CcError` at once; at run
 * time every failure is a typed value given to `onError`, and the run goes on.
 *
 * @example
 * import { createAgent } from "langchain";
 * const manager = createContextManager({ maxTokens: 8000 });
 * const agent = createAgent({ model, tools, middleware: [compactionMiddleware({ manager })] });
 */
export function compactionMiddleware(options: CompactionMiddlewareOptions): CompactionMiddleware {
  const m = decodeCompactionMiddleware(options);
  if (E.isLeft(m)) throw new CcError(m.left);
  return m.right;
}
