/**
 * io-ts codecs for every options object of this package, with messages that name the field.
 * Options objects are strict: an unknown key is refused (with the closest known key suggested),
 * and so are non-finite and out-of-range numbers.
 *
 * @module options
 */
import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
import * as t from "io-ts";
import { CcError, type CcErrorOf, didYouMean, invalid, type InvalidOptions, type Problem } from "@cc/validate";

/**
 * A finite integer ≥ 1 (rejects NaN, ±Infinity, 0, negatives and fractions). It decodes to a
 * plain `number` (no brand), so an options type written with `number` equals its codec's type.
 */
export const PositiveInt = new t.Type<number, number, unknown>(
  "PositiveInt",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1,
  (u, c) => (typeof u === "number" && Number.isSafeInteger(u) && u >= 1 ? t.success(u) : t.failure(u, c)),
  (a) => a,
);

/**
 * A strict options codec: an object whose keys are all optional and all listed in `props`.
 * Unknown keys fail with a message naming the key and the closest known one.
 */
export function strictOptions<P extends t.Props>(
  props: P,
  name: string,
): t.Type<Readonly<t.TypeOf<t.PartialC<P>>>, t.OutputOf<t.PartialC<P>>, unknown> {
  const inner = t.partial(props);
  const known = Object.keys(props);
  return new t.Type<Readonly<t.TypeOf<t.PartialC<P>>>, t.OutputOf<t.PartialC<P>>, unknown>(
    name,
    (u): u is Readonly<t.TypeOf<t.PartialC<P>>> =>
      inner.is(u) && Object.keys(u as object).every((k) => known.includes(k)),
    (u, c) => {
      if (typeof u !== "object" || u === null || Array.isArray(u)) return t.failure(u, c, "expected an options object");
      const unknownKeys = Object.keys(u).filter((k) => !known.includes(k));
      const checked = inner.validate(u, c);
      if (unknownKeys.length === 0) return checked;
      const unknownErrors: t.ValidationError[] = unknownKeys.map((k) => {
        const hint = didYouMean(k, known);
        const value = (u as Record<string, unknown>)[k];
        return {
          value,
          context: [...c, { key: k, type: t.never, actual: value }],
          message: `unknown option${hint === undefined ? ` (known: ${known.join(", ")})` : ` (did you mean "${hint}"?)`}`,
        };
      });
      return t.failures(E.isLeft(checked) ? [...unknownErrors, ...checked.left] : unknownErrors);
    },
    (a) => inner.encode(a),
  );
}

/** An encoding name: `o200k_base` or `cl100k_base`. */
export const EncodingCodec = t.keyof({ o200k_base: null, cl100k_base: null }, "Encoding");

/** Options of `memoCounter`, as a codec. */
export const MemoOptionsCodec = strictOptions({ maxEntries: PositiveInt, maxBytes: PositiveInt }, "MemoOptions");

/** Options of `tiktokenCounter`, as a codec. */
export const TiktokenOptionsCodec = strictOptions({ encoding: EncodingCodec }, "TiktokenOptions");

/** Options of `estimateCounter`, as a codec. */
export const EstimateOptionsCodec = strictOptions({ encoding: EncodingCodec }, "EstimateOptions");

/** The largest chunk or piece limit accepted (2³⁰ UTF-16 units, 2 GiB of text). */
export const maxLimitChars = 2 ** 30;

/**
 * Chunk limits: `maxPieceChars` and `maxChunkChars` both required, integers in [1, 2³⁰]; no
 * other key.
 */
export const ChunkLimitsCodec = new t.Type<
  { readonly maxPieceChars: number; readonly maxChunkChars: number },
  unknown,
  unknown
>(
  "ChunkLimits",
  (u): u is { readonly maxPieceChars: number; readonly maxChunkChars: number } =>
    E.isRight(ChunkLimitsCodecValidate(u, [])),
  (u, c) => ChunkLimitsCodecValidate(u, c),
  (a) => a,
);

const limitInt = new t.Type<number, number, unknown>(
  "integer in [1, 2^30]",
  (u): u is number => typeof u === "number" && Number.isSafeInteger(u) && u >= 1 && u <= maxLimitChars,
  (u, c) =>
    typeof u === "number" && Number.isSafeInteger(u) && u >= 1 && u <= maxLimitChars ? t.success(u) : t.failure(u, c),
  (a) => a,
);
const limitsShape = strictOptions({ maxPieceChars: limitInt, maxChunkChars: limitInt }, "ChunkLimits");

function ChunkLimitsCodecValidate(
  u: unknown,
  c: t.Context,
): t.Validation<{ readonly maxPieceChars: number; readonly maxChunkChars: number }> {
  const shaped = limitsShape.validate(u, c);
  if (E.isLeft(shaped)) return shaped;
  const { maxPieceChars, maxChunkChars } = shaped.right;
  if (maxPieceChars === undefined || maxChunkChars === undefined) {
    const missing = maxPieceChars === undefined ? "maxPieceChars" : "maxChunkChars";
    return t.failure(undefined, [...c, { key: missing, type: limitInt, actual: undefined }], "required");
  }
  return t.success({ maxPieceChars, maxChunkChars });
}

/** Options of `gptTokenizerCounter`, as a codec. */
export const GptTokenizerOptionsCodec = strictOptions(
  { encoding: EncodingCodec, limits: ChunkLimitsCodec },
  "GptTokenizerOptions",
);

/** An `AbortSignal`. */
const AbortSignalCodec = new t.Type<AbortSignal, AbortSignal, unknown>(
  "AbortSignal",
  (u): u is AbortSignal => u instanceof AbortSignal,
  (u, c) => (u instanceof AbortSignal ? t.success(u) : t.failure(u, c)),
  (a) => a,
);

/** Options of `countAsync`, as a codec. */
export const CountAsyncOptionsCodec = strictOptions(
  { sliceChars: PositiveInt, signal: AbortSignalCodec },
  "CountAsyncOptions",
);

/**
 * Options rejected by a codec: the `InvalidOptions` of `@cc/validate`. `subject` names which
 * options (`"TiktokenOptions"`, …); each problem's `message` starts with the field at fault and its
 * `path` names the field (`limits.maxChunkChars`; "" for the whole object).
 */
export type { InvalidOptions } from "@cc/validate";

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "object" && value !== null) return Array.isArray(value) ? "an array" : "an object";
  return String(value);
}

function describe(errors: t.Errors): readonly Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const e of errors) {
    // An intersection adds its member index to the path; it names no field, so drop it.
    const path = e.context
      .filter((c, j) => c.key !== "" && !(e.context[j - 1]?.type instanceof t.IntersectionType))
      .map((c) => c.key)
      .join(".");
    const expected = e.context[e.context.length - 1]?.type.name ?? "value";
    const line = `${path === "" ? "options" : path}: ${e.message ?? `expected ${expected}`}, got ${show(e.value)}`;
    if (!seen.has(line)) {
      seen.add(line);
      const field = path.split(".").pop() ?? "";
      out.push(field === "" ? { path, message: line } : { path, field, message: line });
    }
  }
  return out;
}

/** Decodes `input` with `codec`, mapping failures to {@link InvalidOptions} about `subject`. */
export function decodeOptions<A, O>(
  codec: t.Type<A, O, unknown>,
  input: unknown,
  subject: string = codec.name,
): E.Either<InvalidOptions, A> {
  return pipe(
    codec.decode(input),
    E.mapLeft((errors) => invalid("InvalidOptions", subject, describe(errors))),
  );
}

/** One line for a thrown error: the subject and every problem (the `message` of the {@link InvalidOptions}). */
export function formatInvalid(failure: InvalidOptions): string {
  return failure.message;
}

/**
 * Thrown by the synchronous factories (`tiktokenCounter`, `estimateCounter`, `memoCounter`,
 * `countAsync`, `planChunks`) when their options are invalid: they return a counter, not an
 * `Either`, so a programming error in their options cannot be a value. It is the one `CcError` (its
 * message names every field at fault) that carries the typed failure in `error`. Decode untrusted
 * options first (`decodeOptions`) to get the same failure as a `Left`.
 *
 * @example
 * try { tiktokenCounter({ encodng: "o200k_base" } as never); }
 * catch (e) { if (e instanceof TokensOptionsError) console.error(e.error.problems[0]?.message); }
 *
 * @deprecated Use `CcError` from @cc/validate (this name is the same class; `instanceof` keeps working); kept one release.
 */
export const TokensOptionsError = CcError as unknown as CcErrorOf<InvalidOptions>;
/** @deprecated Use `CcError` from @cc/validate (the one error class of @cc); kept one release. */
export type TokensOptionsError = InstanceType<typeof TokensOptionsError>;

/** Validates `tiktokenCounter` options from configuration. */
export function decodeTiktokenOptions(input: unknown): E.Either<InvalidOptions, t.TypeOf<typeof TiktokenOptionsCodec>> {
  return decodeOptions(TiktokenOptionsCodec, input);
}

/** Validates `estimateCounter` options from configuration. */
export function decodeEstimateOptions(input: unknown): E.Either<InvalidOptions, t.TypeOf<typeof EstimateOptionsCodec>> {
  return decodeOptions(EstimateOptionsCodec, input);
}

/** Validates chunk limits (see `planChunks`). */
export function decodeChunkLimits(input: unknown): E.Either<InvalidOptions, t.TypeOf<typeof ChunkLimitsCodec>> {
  return decodeOptions(ChunkLimitsCodec, input);
}

/** Validates `gptTokenizerCounter` options. */
export function decodeGptTokenizerOptions(
  input: unknown,
): E.Either<InvalidOptions, t.TypeOf<typeof GptTokenizerOptionsCodec>> {
  return decodeOptions(GptTokenizerOptionsCodec, input);
}

/** Validates `countAsync` options. */
export function decodeCountAsyncOptions(
  input: unknown,
): E.Either<InvalidOptions, t.TypeOf<typeof CountAsyncOptionsCodec>> {
  return decodeOptions(CountAsyncOptionsCodec, input);
}
