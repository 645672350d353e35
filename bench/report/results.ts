/**
 * The results file every benchmark writes through `writeResults` (bench/harness.ts), decoded at
 * the boundary: `{ name, quick, date, node, platform, data }`.
 */
import * as E from "fp-ts/lib/Either.js";
import * as t from "io-ts";

/** One decoded `bench/results/<name>.json`; `data` is benchmark-specific. */
export interface ResultDoc {
  readonly name: string;
  readonly quick: boolean;
  readonly date: string;
  readonly node: string;
  readonly platform: string;
  readonly data: unknown;
}

/** io-ts codec of {@link ResultDoc}. */
export const ResultDocCodec = t.type({
  name: t.string,
  quick: t.boolean,
  date: t.string,
  node: t.string,
  platform: t.string,
  data: t.unknown,
});

/** Why a results file could not be read. */
export type ResultError =
  | { readonly _tag: "MalformedJson"; readonly file: string; readonly message: string }
  | { readonly _tag: "InvalidResult"; readonly file: string; readonly errors: readonly string[] }
  | { readonly _tag: "ReadFailed"; readonly file: string; readonly message: string };

/** A one-line description of a {@link ResultError}. */
export function describeResultError(e: ResultError): string {
  switch (e._tag) {
    case "MalformedJson":
      return `${e.file}: malformed JSON (${e.message})`;
    case "InvalidResult":
      return `${e.file}: ${e.errors.join("; ")}`;
    case "ReadFailed":
      return `${e.file}: cannot read (${e.message})`;
  }
}

/**
 * Parses and validates the text of a results file; messages name the file and the field.
 *
 * @example parseResultDoc("x.json", "{}") // Left(InvalidResult: "x.json", ["name: expected string (got undefined)", …])
 */
export function parseResultDoc(file: string, text: string): E.Either<ResultError, ResultDoc> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return E.left({ _tag: "MalformedJson", file, message: e instanceof Error ? e.message : String(e) });
  }
  const r = ResultDocCodec.decode(json);
  if (E.isRight(r)) return E.right(r.right);
  const errors = r.left.map((err) => {
    const path = err.context
      .slice(1)
      .map((c) => c.key)
      .join(".");
    const expected = err.context[err.context.length - 1]?.type.name ?? "value";
    return `${path === "" ? "document" : path}: expected ${expected} (got ${JSON.stringify(err.value) ?? "undefined"})`;
  });
  return E.left({ _tag: "InvalidResult", file, errors });
}
