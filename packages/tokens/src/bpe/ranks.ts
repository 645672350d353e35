/**
 * The BPE rank tables of an encoding, read from the encoder JSON that ships with @dqbd/tiktoken
 * (`encoders/<name>.json`, never fetched): one map keyed by each token's bytes as a binary string
 * (one char per byte) for merging, and one keyed by the token's text for the tokens that are valid
 * UTF-8, so a pre-tokenised piece that is itself a token is found without encoding it.
 *
 * @module bpe/ranks
 */
import { createRequire } from "node:module";
import type { Encoding } from "../counter.js";

/** Ranks of one encoding. */
export interface RankTable {
  /** Rank of every token, keyed by its bytes as a binary string (`"\x68\x69"` for `hi`). */
  readonly byteRanks: ReadonlyMap<string, number>;
  /** Rank of every token whose bytes are valid UTF-8, keyed by its decoded text. */
  readonly textRanks: ReadonlyMap<string, number>;
  /** The bytes of the token of each rank as a binary string (`""` for an unused rank). */
  readonly tokens: readonly string[];
  /** The rank of each single byte (every byte is a token in o200k and cl100k). */
  readonly byteTokens: Int32Array;
  /** The encoding's pre-tokeniser pattern, as published (Rust regex syntax). */
  readonly pattern: string;
}

interface EncoderJson {
  readonly bpe_ranks: string;
  readonly pat_str: string;
}

const require = createRequire(import.meta.url);

/**
 * Parses tiktoken's compact rank list: space-separated base64 tokens, ranks counting up from the
 * offset that follows each `!` marker.
 */
export function parseRanks(bpeRanks: string, pattern: string): RankTable {
  const byteRanks = new Map<string, number>();
  const textRanks = new Map<string, number>();
  const tokens: string[] = [];
  const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }); // a leading U+FEFF is part of the token
  const words = bpeRanks.split(/\s+/);
  let rank = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === "") continue;
    if (word === "!") {
      rank = Number(words[++i]);
      continue;
    }
    const bytes = Buffer.from(word, "base64");
    const bin = bytes.toString("latin1");
    byteRanks.set(bin, rank);
    while (tokens.length < rank) tokens.push("");
    tokens[rank] = bin;
    try {
      textRanks.set(utf8.decode(bytes), rank);
    } catch {
      // Not valid UTF-8 on its own (a partial character): reachable only through byte merges.
    }
    rank++;
  }
  const byteTokens = new Int32Array(256);
  for (let b = 0; b < 256; b++) {
    const r = byteRanks.get(String.fromCharCode(b));
    if (r === undefined) throw new Error(`rank table has no token for byte ${b}`);
    byteTokens[b] = r;
  }
  return { byteRanks, textRanks, tokens, byteTokens, pattern };
}

/** Reads the rank table of `encoding` from @dqbd/tiktoken's encoder JSON (2–4 MB, 0.2–0.4 s). */
export function loadRanks(encoding: Encoding): RankTable {
  const json =
    encoding === "cl100k_base"
      ? (require("@dqbd/tiktoken/encoders/cl100k_base.json") as EncoderJson)
      : (require("@dqbd/tiktoken/encoders/o200k_base.json") as EncoderJson);
  return parseRanks(json.bpe_ranks, json.pat_str);
}
