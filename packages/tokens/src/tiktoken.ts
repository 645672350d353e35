/**
 * The exact backend: @dqbd/tiktoken (lite build + encoder JSON), one encoder per encoding per
 * process, created on first use and freed when the last counter using it is disposed.
 *
 * The tiktoken module (WASM) is itself loaded on the first exact count, not when this module is
 * imported: a caller that only estimates never pays for it. `createRequire` keeps the load
 * synchronous, so `count()` stays synchronous too.
 *
 * @module tiktoken
 */
import { createRequire } from "node:module";
import type * as TiktokenLite from "@dqbd/tiktoken/lite";
import { countChunked } from "./chunking/count.js";
import { defaultChunkLimits, type ChunkLimits } from "./chunking/plan.js";
import type { Encoding, TokenCounter } from "./counter.js";
import { countMessagesWith } from "./messages.js";

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

/** How many live encoders this process holds (one per encoding at most). */
export function liveEncoders(): readonly Encoding[] {
  return [...shared.keys()];
}

/** Options of {@link tiktokenCounter}. */
export interface TiktokenOptions {
  /** Default `o200k_base`. */
  readonly encoding?: Encoding;
  /** Chunking limits (see `planChunks`); the defaults keep ordinary text exact. */
  readonly limits?: ChunkLimits;
}

/**
 * Exact counter on @dqbd/tiktoken. Special-token strings such as `<|endoftext|>` are counted as
 * ordinary text (`encode_ordinary`). Cheap to create: the encoder is built on the first count
 * (0.3–1 s) and shared by every counter of the same encoding in the process.
 *
 * @example
 * const counter = tiktokenCounter();
 * counter.count("hello world"); // 2
 * counter.dispose();
 */
export function tiktokenCounter(options: TiktokenOptions = {}): TokenCounter {
  const encoding = options.encoding ?? "o200k_base";
  const limits = options.limits ?? defaultChunkLimits;
  let encoder: Tiktoken | undefined;
  let disposed = false;
  const encode = (chunk: string): number => {
    if (encoder === undefined) {
      if (disposed) throw new Error(`tiktokenCounter(${encoding}) used after dispose()`);
      encoder = acquire(encoding);
    }
    return encoder.encode_ordinary(chunk).length;
  };
  const count = (text: string): number => countChunked(encode, text, limits);
  return {
    encoding,
    count,
    countMessages: (messages) => countMessagesWith(count, messages),
    dispose: () => {
      if (encoder !== undefined) release(encoding);
      encoder = undefined;
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
 * Raw `encode_ordinary` on the shared encoder of `encoding`, with no chunking: the reference the
 * chunked counter is tested and benchmarked against.
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
