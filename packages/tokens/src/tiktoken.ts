/**
 * The exact backend: this package's own BPE counter (see `bpe/count`) over the rank tables that
 * ship with @dqbd/tiktoken, one table per encoding per process, loaded on first use and dropped
 * when the last counter using it is disposed. The @dqbd/tiktoken WASM module is not needed to
 * count; {@link rawTiktoken} loads it as the reference the counter is tested against.
 *
 * Both are loaded on first use, not when this module is imported: a caller that only estimates
 * never pays for them. `createRequire` keeps the load synchronous, so `count()` stays synchronous.
 *
 * @module tiktoken
 */
import { createRequire } from "node:module";
import type * as TiktokenLite from "@dqbd/tiktoken/lite";
import * as E from "fp-ts/lib/Either.js";
import { bpeEngine, type BpeEngine } from "./bpe/count.js";
import { loadRanks } from "./bpe/ranks.js";
import type { Encoding, TokenCounter } from "./counter.js";
import { countMessagesWith } from "./messages.js";
import { decodeTiktokenOptions } from "./options.js";
import { CcError } from "@cc/validate";

interface EncoderJson {
  readonly bpe_ranks: string;
  readonly special_tokens: Record<string, number>;
  readonly pat_str: string;
}

type TiktokenModule = typeof TiktokenLite;
type Tiktoken = TiktokenLite.Tiktoken;

const require = createRequire(import.meta.url);

interface Shared {
  readonly encoder: Tiktoken;
  refs: number;
}

const shared = new Map<Encoding, Shared>();

let tiktokenModule: TiktokenModule | undefined;

/** The tiktoken lite module, required (and its WASM instantiated) on the first call only. */
function tiktoken(): TiktokenModule {
  tiktokenModule ??= require("@dqbd/tiktoken/lite") as TiktokenModule;
  return tiktokenModule;
}

function loadJson(encoding: Encoding): EncoderJson {
  // The JSON files are large (2–4 MB); load only the one asked for.
  return encoding === "cl100k_base"
    ? (require("@dqbd/tiktoken/encoders/cl100k_base.json") as EncoderJson)
    : (require("@dqbd/tiktoken/encoders/o200k_base.json") as EncoderJson);
}

/** Takes a reference on the process-wide encoder of `encoding`, creating it on first use. */
function acquire(encoding: Encoding): Tiktoken {
  const existing = shared.get(encoding);
  if (existing !== undefined) {
    existing.refs++;
    return existing.encoder;
  }
  const json = loadJson(encoding);
  const encoder = new (tiktoken().Tiktoken)(json.bpe_ranks, json.special_tokens, json.pat_str);
  shared.set(encoding, { encoder, refs: 1 });
  return encoder;
}

/** Drops a reference; the encoder's WASM memory is freed with the last one. */
function release(encoding: Encoding): void {
  const entry = shared.get(encoding);
  if (entry === undefined) return;
  entry.refs--;
  if (entry.refs <= 0) {
    shared.delete(encoding);
    entry.encoder.free();
  }
}

/** How many live encoders this process holds (one per encoding at most): counting tables and reference encoders. */
export function liveEncoders(): readonly Encoding[] {
  return [...new Set([...engines.keys(), ...shared.keys()])];
}

interface SharedEngine {
  readonly engine: BpeEngine;
  refs: number;
}

const engines = new Map<Encoding, SharedEngine>();

/** Takes a reference on the process-wide counting engine of `encoding`, loading its ranks on first use. */
function acquireEngine(encoding: Encoding): BpeEngine {
  const existing = engines.get(encoding);
  if (existing !== undefined) {
    existing.refs++;
    return existing.engine;
  }
  const engine = bpeEngine(encoding, loadRanks(encoding));
  engines.set(encoding, { engine, refs: 1 });
  return engine;
}

/** Drops a reference; the rank tables are released with the last one. */
function releaseEngine(encoding: Encoding): void {
  const entry = engines.get(encoding);
  if (entry === undefined) return;
  entry.refs--;
  if (entry.refs <= 0) engines.delete(encoding);
}

/** Options of {@link tiktokenCounter}. */
export interface TiktokenOptions {
  /**
   * The encoding counted.
   * @default "o200k_base"
   */
  readonly encoding?: Encoding;
}

/**
 * Exact counter: equals @dqbd/tiktoken's `encode_ordinary(text).length` on every string (no piece
 * is ever cut; long pieces are merged in O(n log n)). Special-token strings such as
 * `<|endoftext|>` count as ordinary text. Cheap to create: the rank table is loaded on the first
 * count (0.2–0.6 s) and shared by every counter of the same encoding in the process. Invalid
 * options (an unknown key or encoding) are a programming error and throw a `CcError` (from @cc/validate, carrying the typed `InvalidOptions`) naming the
 * field; use `decodeTiktokenOptions` to validate untrusted configuration first.
 *
 * @example
 * const counter = tiktokenCounter();
 * counter.count("hello world"); // 2
 * counter.dispose();
 */
export function tiktokenCounter(options: TiktokenOptions = {}): TokenCounter {
  const decoded = decodeTiktokenOptions(options);
  if (E.isLeft(decoded)) throw new CcError(decoded.left);
  const encoding = decoded.right.encoding ?? "o200k_base";
  let engine: BpeEngine | undefined;
  let disposed = false;
  const count = (text: string): number => {
    if (engine === undefined) {
      if (disposed) throw new Error(`tiktokenCounter(${encoding}) used after dispose()`);
      engine = acquireEngine(encoding);
    }
    return engine.count(text);
  };
  return {
    encoding,
    count,
    countMessages: (messages) => countMessagesWith(count, messages),
    dispose: () => {
      if (engine !== undefined) releaseEngine(encoding);
      engine = undefined;
      disposed = true;
    },
  };
}

/** A handle on the raw shared encoder, with no chunking (see {@link rawTiktoken}). */
export interface RawTiktoken {
  /** `encode_ordinary(text).length` on the whole text at once. Quadratic on long pieces. */
  count(text: string): number;
  /** Releases this handle's reference on the shared encoder. */
  dispose(): void;
}

/**
 * Raw `encode_ordinary` on the shared @dqbd/tiktoken (WASM) encoder of `encoding`: the reference
 * the exact counter is tested and benchmarked against.
 */
export function rawTiktoken(encoding: Encoding): RawTiktoken {
  const encoder = acquire(encoding);
  let live = true;
  return {
    count: (text) => encoder.encode_ordinary(text).length,
    dispose: () => {
      if (live) release(encoding);
      live = false;
    },
  };
}
