/**
 * Fact-keeping masks: before whole units leave, the least important tool outputs (and long
 * observations a text-acting agent receives as user messages) are replaced in place by a stub —
 * a pointer (the index id and the output's tokens) and the output's key facts within a small
 * allowance — while the call that produced them stays. The original goes to the index and
 * expands back byte for byte. This subsumes tool-result clearing (`clear_tool_uses`): keep the
 * newest N, exclude named tools, clear at least X tokens per pass.
 *
 * @module strategy/mask
 */
import { createHash } from "node:crypto";
import { rank, type ScoringOptions } from "@cc/importance";
import { SUMMARY_PREFIX, toolCallIssuers, unitText, type Message } from "@cc/messages";
import * as E from "fp-ts/lib/Either.js";
import { extractiveSummary } from "../summarize.js";
import type { SummaryWriter } from "../writer.js";
import { fitFacts, keyFacts } from "./facts.js";
import { excerptText } from "./task-excerpt.js";
import type { MessageSegment } from "./segments.js";

/**
 * How a pass masks outputs (`EvictionOptions.mask`). Every field is optional.
 *
 * @example const mask: MaskOptions = { keepRecent: 3, stubTokens: 96, excludeTools: ["memory"] };
 */
export interface MaskOptions {
  /**
   * The newest observations (tool results and observation messages, of any size) never masked.
   * @default 3
   */
  readonly keepRecent?: number;
  /**
   * Outputs of fewer tokens stay as they are (a stub would save little).
   * @default 200
   */
  readonly minTokens?: number;
  /**
   * Token allowance of a stub's key facts (the pointer line comes on top).
   * @default 96
   */
  readonly stubTokens?: number;
  /**
   * Tools whose results are never masked (by tool name).
   * @default []
   */
  readonly excludeTools?: readonly string[];
  /**
   * Once a pass masks, it frees at least this many tokens (fewer, larger rewrites of the prompt
   * keep a provider's cached prefix valid longer), as far as there are outputs to mask.
   * @default 0
   */
  readonly clearAtLeast?: number;
}

/** The defaults of {@link MaskOptions}. */
export const MASK_DEFAULTS: Required<MaskOptions> = {
  keepRecent: 3,
  minTokens: 200,
  stubTokens: 96,
  excludeTools: [],
  clearAtLeast: 0,
};

/** How every stub begins (a message that begins so is never masked again). */
export const MASK_PREFIX = "[output masked to the journal: ";

/**
 * One masked output.
 *
 * @example for (const m of eviction.masked) console.log(`${m.id}: ${m.tokens} → ${m.stubTokens} tokens`);
 */
export interface MaskedEntry {
  /** Index id of the original (expand it to read the output again). */
  readonly id: string;
  /** Position of the message in the pass's messages (notes of earlier passes left out). */
  readonly position: number;
  /** Tokens of the original message and of its stub. */
  readonly tokens: number;
  readonly stubTokens: number;
}

/**
 * The stub of a masked output (pure): its pointer line, then its facts joined by `" · "`.
 *
 * @example maskStub("o3f…", 1234, ["KeyError: 'port'", "src/io.py:42"])
 * // "[output masked to the journal: o3f…, 1234 tokens; expand the id to read it]\nkey facts: KeyError: 'port' · src/io.py:42"
 */
export function maskStub(id: string, tokens: number, facts: readonly string[]): string {
  const head = `${MASK_PREFIX}${id}, ${tokens} tokens; expand the id to read it]`;
  return facts.length === 0 ? head : `${head}\nkey facts: ${facts.join(" · ")}`;
}

/**
 * The index id of an output (`o` + 32 hex digits of the SHA-256 of the message), so the same
 * output gets the same id in every pass.
 *
 * @example outputId({ role: "tool", content: "ok", toolCallId: "c1" }) // "o" + 32 hex digits
 */
export function outputId(message: Message): string {
  return `o${createHash("sha256").update(JSON.stringify(message)).digest("hex").slice(0, 32)}`;
}

/**
 * The lookups of one pass, computed once (linear): each tool result's tool name (by the call of
 * its issuing assistant message), the assistant text and call arguments before each message (the
 * facts the agent already stated), and the unit holding each message.
 */
interface Lookups {
  toolName(i: number): string | undefined;
  knownText(i: number): string;
  segmentAt(i: number): MessageSegment | undefined;
}

function lookups(messages: readonly Message[], segments: readonly MessageSegment[]): Lookups {
  const issuers = toolCallIssuers(messages);
  const lastAssistant = new Int32Array(messages.length).fill(-1);
  for (let i = 0, last = -1; i < messages.length; i++) {
    lastAssistant[i] = last;
    if (messages[i]!.role === "assistant") last = i;
  }
  const unitOf = new Map<number, MessageSegment>();
  for (const s of segments) for (let i = s.unit.start; i < s.unit.end; i++) unitOf.set(i, s);
  return {
    toolName: (i) => {
      const m = messages[i]!;
      if (m.role !== "tool") return undefined;
      if (m.name !== undefined) return m.name;
      const a = messages[issuers[i]!];
      return a?.role === "assistant" ? a.toolCalls?.find((c) => c.id === m.toolCallId)?.name : undefined;
    },
    knownText: (i) => {
      const a = messages[lastAssistant[i]!];
      return a?.role === "assistant" ? [a.content, ...(a.toolCalls ?? []).map((c) => c.arguments)].join("\n") : "";
    },
    segmentAt: (i) => unitOf.get(i),
  };
}

/**
 * Whether message `i` is an observation (pure): a tool result, or a user message after the
 * task that answers an assistant message (a text-acting agent's observation), never a note.
 */
function isObservation(messages: readonly Message[], i: number, taskAt: number): boolean {
  const m = messages[i]!;
  if (m.role === "tool") return true;
  return (
    m.role === "user" && i > taskAt && messages[i - 1]?.role === "assistant" && !m.content.startsWith(SUMMARY_PREFIX)
  );
}

/** The result of {@link maskOutputs}. */
export interface Masking {
  /** The messages with every masked output replaced by its stub (the input when nothing was). */
  readonly messages: readonly Message[];
  readonly masked: readonly MaskedEntry[];
  /** Outputs whose original could not be written (they stay unmasked), with the reason. */
  readonly failures: readonly { readonly id: string; readonly reason: string }[];
}

/** What {@link maskOutputs} needs besides the messages. */
export interface MaskRun {
  /** Counts text and chat messages (a `StrategyCounter`). */
  readonly counter: { count(text: string): number; countMessages(messages: readonly Message[]): number };
  readonly writer: SummaryWriter;
  readonly scoring: ScoringOptions;
  readonly now: number;
  readonly idPrefix: string;
  /** Index of the pinned task (observations come after it), -1 when none. */
  readonly taskAt: number;
  /** Token goal: masking stops once the messages count at most this many. */
  readonly goal: number;
  readonly signal?: AbortSignal;
}

/**
 * Masks outputs of `messages` until they count at most `run.goal` tokens (and `clearAtLeast`
 * was freed): observations of unpinned units (see `segments`), outside the newest `keepRecent`,
 * of at least `minTokens`, not of an excluded tool, least important unit first. Each original
 * is written to the index before its stub replaces it; one that cannot be written stays.
 *
 * @example
 * const segments = buildSegments(history, { counter, now, preserveLast: 6 });
 * const m = await maskOutputs(history, segments, MASK_DEFAULTS, { counter, writer, scoring, now, idPrefix: "", taskAt: 1, goal: 6000 });
 */
export async function maskOutputs(
  messages: readonly Message[],
  segments: readonly MessageSegment[],
  options: MaskOptions,
  run: MaskRun,
): Promise<Masking> {
  const o = { ...MASK_DEFAULTS, ...options };
  const base = run.counter.countMessages([]);
  const observations: number[] = [];
  for (let i = 0; i < messages.length; i++) if (isObservation(messages, i, run.taskAt)) observations.push(i);
  const isObs = new Set(observations);
  const recent = new Set(o.keepRecent === 0 ? [] : observations.slice(-o.keepRecent));
  const excluded = new Set(o.excludeTools);
  const order = rank(segments, run.scoring).filter((s) => s.pinned !== true);
  const look = lookups(messages, segments);
  const candidates: number[] = [];
  for (const s of order) {
    for (let i = s.unit.start; i < s.unit.end; i++) {
      const m = messages[i]!;
      if (!isObs.has(i) || recent.has(i) || m.content.startsWith(MASK_PREFIX)) continue;
      const tool = look.toolName(i);
      if (tool !== undefined && excluded.has(tool)) continue;
      candidates.push(i);
    }
  }
  let total = run.counter.countMessages(messages);
  if (candidates.length === 0 || (total <= run.goal && o.clearAtLeast === 0))
    return { messages, masked: [], failures: [] };
  const out = [...messages];
  const masked: MaskedEntry[] = [];
  const failures: { id: string; reason: string }[] = [];
  let freed = 0;
  for (const i of candidates) {
    if (total <= run.goal && freed >= o.clearAtLeast) break;
    if (run.signal?.aborted === true) break;
    const m = messages[i]!;
    const tokens = run.counter.countMessages([m]) - base;
    if (tokens < o.minTokens) continue;
    const id = `${run.idPrefix}${outputId(m)}`;
    const segment = look.segmentAt(i);
    const tool = look.toolName(i);
    const written = await run.writer.writeSummary(
      {
        id,
        content: m.content,
        tokenCost: tokens,
        createdAt: m.timestamp ?? segment?.createdAt ?? run.now,
        kind: tool === undefined ? "observation" : `output:${tool}`,
      },
      extractiveSummary(m.content),
      { evictedAt: run.now, signal: run.signal ?? new AbortController().signal },
    )();
    if (E.isLeft(written)) {
      failures.push({
        id,
        reason: written.left._tag === "WriterThrew" ? written.left.message : JSON.stringify(written.left.error),
      });
      continue;
    }
    const storedAs = written.right?.id ?? id;
    const facts = fitFacts(keyFacts(m.content, look.knownText(i)), o.stubTokens, (t) => run.counter.count(t));
    // The stub replaces the text; multi-part content (images, files) leaves with it.
    const { parts: _parts, ...rest } = m;
    const stub = { ...rest, content: maskStub(storedAs, tokens, facts) } as Message;
    const stubTokens = run.counter.countMessages([stub]) - base;
    if (stubTokens >= tokens) continue;
    out[i] = stub;
    total -= tokens - stubTokens;
    freed += tokens - stubTokens;
    masked.push({ id: storedAs, position: i, tokens, stubTokens });
  }
  return { messages: masked.length === 0 ? messages : out, masked, failures };
}

/** What the pointer line of a clipped output says after its token count. */
export const CLIP_MARK = "clipped to fit the budget";

/**
 * The pointer line of a clipped output (a stub: {@link stubId} reads it).
 *
 * @example clipPointer("o1", 5120) // "[output masked to the journal: o1, 5120 tokens; clipped to fit the budget, expand the id to read it all]"
 */
export function clipPointer(id: string, tokens: number): string {
  return `${MASK_PREFIX}${id}, ${tokens} tokens; ${CLIP_MARK}, expand the id to read it all]`;
}

/** The smallest text allowance a clipped output gets (its pointer and a few facts). */
export const CLIP_MIN_TOKENS = 64;

/**
 * The last resort of a pass whose kept messages still exceed `run.goal` (a verbatim tail of
 * outputs larger than the budget): the largest observations, the newest included, become stubs
 * that keep a pointer, their opening lines and their key facts (`excerptText`), each cut just
 * enough to reach the goal (at least {@link CLIP_MIN_TOKENS}), until the messages fit. Each
 * original is written to the index first; one that cannot be written stays. A stub is never
 * clipped again.
 *
 * @example
 * const c = await clipOutputs(kept, { counter, writer, scoring, now, idPrefix: "", taskAt: 1, goal: 1800 });
 */
export async function clipOutputs(messages: readonly Message[], run: MaskRun): Promise<Masking> {
  const base = run.counter.countMessages([]);
  let total = run.counter.countMessages(messages);
  if (total <= run.goal) return { messages, masked: [], failures: [] };
  const look = lookups(messages, []);
  const size = (m: Message): number => run.counter.countMessages([m]) - base;
  // Observations first, largest first; then the agent's own long texts (their calls stay whole).
  const sized = messages
    .map((m, i) => ({ i, tokens: size(m) }))
    .filter(({ i }) => !messages[i]!.content.startsWith(MASK_PREFIX));
  const bySize = (a: { i: number; tokens: number }, b: { i: number; tokens: number }): number =>
    b.tokens - a.tokens || a.i - b.i;
  const candidates = [
    ...sized.filter(({ i }) => isObservation(messages, i, run.taskAt)).sort(bySize),
    ...sized.filter(({ i }) => messages[i]!.role === "assistant" && i > run.taskAt).sort(bySize),
  ];
  const out = [...messages];
  const masked: MaskedEntry[] = [];
  const failures: { id: string; reason: string }[] = [];
  for (const { i, tokens } of candidates) {
    if (total <= run.goal || run.signal?.aborted === true) break;
    const m = messages[i]!;
    const { parts: _parts, ...rest } = m;
    const overhead = run.counter.countMessages([{ ...rest, content: "" } as Message]) - base;
    const allowance = Math.max(CLIP_MIN_TOKENS, tokens - (total - run.goal) - overhead);
    const id = `${run.idPrefix}${outputId(m)}`;
    const count = (t: string): number => run.counter.count(t);
    if (excerptText(m.content, clipPointer(id, tokens), allowance, count, true, look.knownText(i)) === undefined)
      continue;
    const tool = look.toolName(i);
    const kind = m.role === "assistant" ? "assistant" : tool === undefined ? "observation" : `output:${tool}`;
    const written = await run.writer.writeSummary(
      { id, content: m.content, tokenCost: tokens, createdAt: m.timestamp ?? run.now, kind },
      extractiveSummary(m.content),
      {
        evictedAt: run.now,
        signal: run.signal ?? new AbortController().signal,
      },
    )();
    if (E.isLeft(written)) {
      failures.push({
        id,
        reason: written.left._tag === "WriterThrew" ? written.left.message : JSON.stringify(written.left.error),
      });
      continue;
    }
    const storedAs = written.right?.id ?? id;
    const text = excerptText(m.content, clipPointer(storedAs, tokens), allowance, count, true, look.knownText(i));
    if (text === undefined) continue;
    const stub = { ...rest, content: text } as Message;
    const stubTokens = size(stub);
    if (stubTokens >= tokens) continue;
    out[i] = stub;
    total -= tokens - stubTokens;
    masked.push({ id: storedAs, position: i, tokens, stubTokens });
  }
  return { messages: masked.length === 0 ? messages : out, masked, failures };
}

const STUB_ID = /^\[output masked to the journal: (\S+), \d+ tokens;/;

/**
 * The index id a stub names (pure), or `undefined` when `content` is not a stub.
 *
 * @example stubId(maskStub("o12", 300, [])) // "o12"
 */
export function stubId(content: string): string | undefined {
  return STUB_ID.exec(content)?.[1];
}

/**
 * A restorer of units that hold stubs (see {@link restoringOriginals}): `restore(s)` is `s` with
 * `content` (what the index stores and searches when the unit leaves) rendered from the originals;
 * a unit without stubs, or pinned, is itself. Each unit is restored at most once.
 */
export type Restore = <S extends MessageSegment>(segment: S) => Promise<S>;

/**
 * Restores units lazily, only when one leaves: `originals` maps a stub's id to its output (this
 * pass's masks), `expand` fetches the others (earlier passes) — read for the units that are
 * evicted, never for the ones that stay. A stub whose original cannot be read stays as it is. Ids,
 * costs and messages are unchanged.
 *
 * @example
 * const restore = restoringOriginals(new Map([["o12", "…"]]), async (id) => pipe(await index.expand(id)(), E.match(() => undefined, (e) => e?.content)));
 * await restore(eviction.segments[0]!);
 */
export function restoringOriginals(
  originals: ReadonlyMap<string, string>,
  expand: (id: string) => Promise<string | undefined>,
): Restore {
  const done = new Map<string, Promise<MessageSegment>>();
  const restoreOne = async <S extends MessageSegment>(s: S): Promise<S> => {
    if (
      s.pinned === true ||
      !s.unit.messages.some((m) => m.content.startsWith(MASK_PREFIX) && stubId(m.content) !== undefined)
    )
      return s;
    const messages: Message[] = [];
    for (const m of s.unit.messages) {
      const id = m.content.startsWith(MASK_PREFIX) ? stubId(m.content) : undefined;
      const original = id === undefined ? undefined : (originals.get(id) ?? (await expand(id).catch(() => undefined)));
      messages.push(original === undefined ? m : ({ ...m, content: original } as Message));
    }
    return { ...s, content: unitText({ ...s.unit, messages }) };
  };
  return <S extends MessageSegment>(s: S): Promise<S> => {
    const known = done.get(s.id);
    if (known !== undefined) return known as Promise<S>;
    const p = restoreOne(s);
    done.set(s.id, p);
    return p;
  };
}
