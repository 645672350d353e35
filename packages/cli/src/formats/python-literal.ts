/**
 * A parser for the subset of Python literal syntax that agent frameworks write with `repr()`:
 * dicts, lists, tuples, strings (both quote styles, triple quotes, `r`/`u`/`b` prefixes, escapes,
 * adjacent-literal concatenation), `True` / `False` / `None`, ints and floats.
 * It never evaluates anything: unknown syntax is a typed error with its offset.
 *
 * A number a double cannot hold exactly — an integer past 2^53, a float beyond the range of a
 * double (`1e400`), Python's `inf` / `nan` — is never changed silently: {@link readPythonLiteral}
 * keeps its source text ({@link LiteralNumber}), {@link inexactNumbers} lists each one with its
 * path, and {@link literalJson} writes it back with its exact digits.
 *
 * @example
 * parsePythonLiteral("[{'id': 'call_1', 'ok': True}]") // right([{ id: "call_1", ok: true }])
 *
 * @module python-literal
 */
import * as E from "fp-ts/lib/Either.js";

/** A Python literal could not be parsed: `offset` is the UTF-16 index where it went wrong. */
export interface PythonLiteralError {
  readonly _tag: "PythonLiteralError";
  readonly offset: number;
  readonly message: string;
}

/** The JSON-like value a Python literal denotes (dicts become plain objects, tuples arrays). */
export type PythonValue =
  null | boolean | number | string | readonly PythonValue[] | { readonly [key: string]: PythonValue };

/**
 * A number whose source text a double does not hold exactly (see {@link inexactReason}): the
 * text as written (underscores removed) and the nearest double.
 */
export class LiteralNumber {
  constructor(
    /** The literal as written, underscores removed (`123456789012345678901`, `1e400`, `-inf`). */
    readonly text: string,
    /** The nearest double (`Infinity` for `1e400`, `NaN` for `nan`). */
    readonly value: number,
    /** Why the double is not the number written. */
    readonly reason: InexactReason,
    /** UTF-16 offset of the literal in the parsed text. */
    readonly offset: number,
  ) {}
}

/** Why a number literal is not held exactly by a double. */
export type InexactReason =
  "integer past 2^53" | "beyond the range of a double" | "below the smallest double" | "infinite" | "not a number";

/** A parsed literal whose inexact numbers are {@link LiteralNumber}s (their text kept). */
export type LiteralValue =
  null | boolean | number | string | LiteralNumber | readonly LiteralValue[] | { readonly [key: string]: LiteralValue };

/**
 * One number of a literal that a double does not hold exactly, with where it is.
 *
 * @example
 * // { _tag: "InexactNumber", path: "[0].n", offset: 7, text: "1e400", value: Infinity, reason: "beyond the range of a double" }
 */
export interface InexactNumber {
  readonly _tag: "InexactNumber";
  /** Where in the literal: `[0].function.arguments.n` style (`""` for the whole literal). */
  readonly path: string;
  readonly offset: number;
  readonly text: string;
  readonly value: number;
  readonly reason: InexactReason;
}

class Failure {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const MAX_DEPTH = 200;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
};

class Parser {
  pos = 0;
  constructor(readonly src: string) {}

  fail(message: string, at: number = this.pos): never {
    throw new Failure(at, message);
  }

  skipSpace(): void {
    while (this.pos < this.src.length) {
      const c = this.src[this.pos]!;
      if (c === " " || c === "\t" || c === "\n" || c === "\r") this.pos++;
      else if (c === "\\" && this.src[this.pos + 1] === "\n") this.pos += 2;
      else break;
    }
  }

  value(depth: number): LiteralValue {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH}`);
    this.skipSpace();
    const c = this.src[this.pos];
    if (c === undefined) this.fail("unexpected end of input");
    if (c === "{") return this.dict(depth);
    if (c === "[") return this.sequence("]", depth);
    if (c === "(") return this.sequence(")", depth);
    if (c === "'" || c === '"') return this.strings();
    if (/[rRuUbB]/.test(c) && this.stringPrefixLength() > 0) return this.strings();
    if (c === "-" || c === "+" || c === "." || (c >= "0" && c <= "9")) return this.number();
    const special = this.special();
    if (special !== undefined) return special;
    for (const [word, v] of [
      ["True", true],
      ["False", false],
      ["None", null],
    ] as const) {
      if (this.src.startsWith(word, this.pos) && !/[A-Za-z0-9_]/.test(this.src[this.pos + word.length] ?? "")) {
        this.pos += word.length;
        return v;
      }
    }
    return this.fail(`unexpected character ${JSON.stringify(c)}`);
  }

  /** Length of a string prefix (r, u, b, rb, br …) followed by a quote at the cursor, else 0. */
  stringPrefixLength(): number {
    const m = /^[rRuUbB]{1,2}(?=['"])/.exec(this.src.slice(this.pos, this.pos + 3));
    return m === null ? 0 : m[0].length;
  }

  strings(): string {
    let out = this.string();
    for (;;) {
      const save = this.pos;
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === "'" || c === '"' || (c !== undefined && /[rRuUbB]/.test(c) && this.stringPrefixLength() > 0))
        out += this.string();
      else {
        this.pos = save;
        return out;
      }
    }
  }

  string(): string {
    const prefixLen = this.stringPrefixLength();
    const raw = /[rR]/.test(this.src.slice(this.pos, this.pos + prefixLen));
    this.pos += prefixLen;
    const start = this.pos;
    const q = this.src[this.pos]!;
    const triple = this.src.startsWith(q.repeat(3), this.pos);
    const close = triple ? q.repeat(3) : q;
    this.pos += close.length;
    const parts: string[] = [];
    let chunkStart = this.pos;
    for (;;) {
      if (this.pos >= this.src.length) this.fail("unterminated string", start);
      const c = this.src[this.pos]!;
      if (c === q && this.src.startsWith(close, this.pos)) {
        parts.push(this.src.slice(chunkStart, this.pos));
        this.pos += close.length;
        return parts.join("");
      }
      if (!triple && c === "\n") this.fail("newline inside a single-quoted string", this.pos);
      if (c !== "\\") {
        this.pos++;
        continue;
      }
      parts.push(this.src.slice(chunkStart, this.pos));
      const next = this.src[this.pos + 1];
      if (next === undefined) this.fail("unterminated string", start);
      if (raw) {
        parts.push(c + next);
        this.pos += 2;
      } else {
        parts.push(this.escape(next));
      }
      chunkStart = this.pos;
    }
  }

  /** Decodes the escape at the cursor (which sits on the backslash) and advances past it. */
  escape(next: string): string {
    const at = this.pos;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined && !(next === "0" && /[0-7]/.test(this.src[at + 2] ?? ""))) {
      this.pos += 2;
      return simple;
    }
    if (next === "\n") {
      this.pos += 2;
      return "";
    }
    const hexLen = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (hexLen > 0) {
      const hex = this.src.slice(at + 2, at + 2 + hexLen);
      if (!new RegExp(`^[0-9a-fA-F]{${hexLen}}$`).test(hex)) this.fail(`bad \\${next} escape`, at);
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) this.fail(`code point out of range in \\${next} escape`, at);
      this.pos += 2 + hexLen;
      return String.fromCodePoint(cp);
    }
    const oct = /^[0-7]{1,3}/.exec(this.src.slice(at + 1, at + 4));
    if (oct !== null) {
      this.pos += 1 + oct[0].length;
      return String.fromCharCode(parseInt(oct[0], 8));
    }
    // Python keeps unknown escapes verbatim (backslash included).
    this.pos += 2;
    return `\\${next}`;
  }

  /** `inf` / `nan` as Python's `repr` writes them (a sign is read by {@link Parser.number}). */
  special(sign = ""): LiteralNumber | undefined {
    for (const [word, value, reason] of [
      ["inf", Number.POSITIVE_INFINITY, "infinite"],
      ["nan", Number.NaN, "not a number"],
    ] as const) {
      if (this.src.startsWith(word, this.pos) && !/[A-Za-z0-9_]/.test(this.src[this.pos + word.length] ?? "")) {
        const at = this.pos - sign.length;
        this.pos += word.length;
        return new LiteralNumber(`${sign}${word}`, sign === "-" ? -value : value, reason, at);
      }
    }
    return undefined;
  }

  number(): number | LiteralNumber {
    const at = this.pos;
    const sign0 = this.src[this.pos];
    if (sign0 === "-" || sign0 === "+") {
      this.pos++;
      const special = this.special(sign0);
      if (special !== undefined) return special;
      this.pos = at;
    }
    const m = /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?\.?)/.exec(
      this.src.slice(this.pos, this.pos + 400),
    );
    if (m === null || m[0] === "" || m[0] === "-" || m[0] === "+") return this.fail("malformed number");
    const text = m[0].replace(/_/g, "");
    const sign = text.startsWith("-") ? -1 : 1;
    const body = text.replace(/^[+-]/, "");
    let n: number;
    if (/^0[xX]/.test(body)) n = parseInt(body.slice(2), 16);
    else if (/^0[oO]/.test(body)) n = parseInt(body.slice(2), 8);
    else if (/^0[bB]/.test(body)) n = parseInt(body.slice(2), 2);
    else n = Number(body);
    if (Number.isNaN(n)) return this.fail("malformed number");
    this.pos += m[0].length;
    const value = sign * n;
    const reason = inexactReason(body, n);
    return reason === undefined ? value : new LiteralNumber(text, value, reason, at);
  }

  sequence(closer: "]" | ")", depth: number): LiteralValue[] {
    this.pos++;
    const items: LiteralValue[] = [];
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === closer) {
        this.pos++;
        return items;
      }
      items.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === ",") this.pos++;
      else if (c !== closer) this.fail(c === undefined ? "unexpected end of input" : `expected "," or "${closer}"`);
    }
  }

  dict(depth: number): { [key: string]: LiteralValue } {
    this.pos++;
    const out: { [key: string]: LiteralValue } = {};
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === "}") {
        this.pos++;
        return out;
      }
      const keyAt = this.pos;
      const key = this.value(depth + 1);
      if (typeof key === "object" && key !== null && !(key instanceof LiteralNumber))
        this.fail("a dict key must be a string, number, bool or None", keyAt);
      this.skipSpace();
      if (this.src[this.pos] !== ":") this.fail('expected ":" after a dict key');
      this.pos++;
      const v = this.value(depth + 1);
      Object.defineProperty(out, key instanceof LiteralNumber ? key.text : String(key), {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === ",") this.pos++;
      else if (c !== "}") this.fail(c === undefined ? "unexpected end of input" : 'expected "," or "}"');
    }
  }
}

/**
 * Why the double `n` read from the unsigned literal `body` is not the number written, or
 * `undefined` when it is (decimal fractions such as `0.1` round as every JSON number does).
 */
function inexactReason(body: string, n: number): InexactReason | undefined {
  if (n === Number.POSITIVE_INFINITY) return "beyond the range of a double";
  const integer = /^0[xXoObB]/.test(body) || /^\d+$/.test(body);
  if (integer)
    return n > Number.MAX_SAFE_INTEGER && BigInt(n) !== literalBigInt(body) ? "integer past 2^53" : undefined;
  if (n === 0 && /[1-9]/.test(body.replace(/[eE].*$/, ""))) return "below the smallest double";
  return undefined;
}

/** The exact integer an unsigned integer literal denotes. */
function literalBigInt(body: string): bigint {
  if (/^0[xX]/.test(body)) return BigInt(`0x${body.slice(2)}`);
  if (/^0[oO]/.test(body)) return BigInt(`0o${body.slice(2)}`);
  if (/^0[bB]/.test(body)) return BigInt(`0b${body.slice(2)}`);
  return BigInt(body);
}

/**
 * Parses one Python literal, keeping the text of every number a double does not hold exactly
 * as a {@link LiteralNumber}. Dict keys become strings (an inexact number key keeps its text).
 *
 * @example
 * readPythonLiteral("{'n': 1e400}") // right({ n: LiteralNumber { text: "1e400", value: Infinity, … } })
 */
export function readPythonLiteral(text: string): E.Either<PythonLiteralError, LiteralValue> {
  const p = new Parser(text);
  try {
    const v = p.value(0);
    p.skipSpace();
    if (p.pos < text.length) p.fail("unexpected text after the literal");
    return E.right(v);
  } catch (e: unknown) {
    if (e instanceof Failure) return E.left({ _tag: "PythonLiteralError", offset: e.offset, message: e.message });
    if (e instanceof RangeError)
      return E.left({ _tag: "PythonLiteralError", offset: p.pos, message: "input too deeply nested" });
    throw e;
  }
}

/** The value with every {@link LiteralNumber} replaced by its nearest double. */
export function plainValue(v: LiteralValue): PythonValue {
  if (v instanceof LiteralNumber) return v.value;
  if (Array.isArray(v)) return (v as readonly LiteralValue[]).map(plainValue);
  if (typeof v === "object" && v !== null) {
    const out: { [key: string]: PythonValue } = {};
    for (const [k, x] of Object.entries(v as { readonly [key: string]: LiteralValue }))
      Object.defineProperty(out, k, { value: plainValue(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v as PythonValue;
}

const keyPath = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

/**
 * Every inexact number in `v`, in order, with its path (`[0].function.arguments.n`) and offset.
 *
 * @example pipe(readPythonLiteral("[1, 2**64]"), E.map((v) => inexactNumbers(v))) // right: one InexactNumber at path "[1]"
 */
export function inexactNumbers(v: LiteralValue, path = ""): readonly InexactNumber[] {
  if (v instanceof LiteralNumber)
    return [{ _tag: "InexactNumber", path, offset: v.offset, text: v.text, value: v.value, reason: v.reason }];
  if (Array.isArray(v)) return (v as readonly LiteralValue[]).flatMap((x, i) => inexactNumbers(x, `${path}[${i}]`));
  if (typeof v === "object" && v !== null)
    return Object.entries(v as { readonly [key: string]: LiteralValue }).flatMap(([k, x]) =>
      inexactNumbers(x, `${path}${keyPath(k)}`),
    );
  return [];
}

/**
 * JSON text of a literal value in which an inexact number keeps its exact digits (an integer
 * past 2^53 in decimal, `1e400` as written); `inf` and `nan`, which JSON cannot write, become
 * `null` (and are listed by {@link inexactNumbers}).
 *
 * @example pipe(readPythonLiteral("{'n': 123456789012345678901}"), E.map(literalJson)) // right('{"n":123456789012345678901}')
 */
export function literalJson(v: LiteralValue): string {
  if (v instanceof LiteralNumber) return numberJson(v);
  if (Array.isArray(v)) return `[${(v as readonly LiteralValue[]).map(literalJson).join(",")}]`;
  if (typeof v === "object" && v !== null)
    return `{${Object.entries(v as { readonly [key: string]: LiteralValue })
      .map(([k, x]) => `${JSON.stringify(k)}:${literalJson(x)}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function numberJson(n: LiteralNumber): string {
  if (n.reason === "infinite" || n.reason === "not a number") return "null";
  const sign = n.text.startsWith("-") ? "-" : "";
  const body = n.text.replace(/^[+-]/, "");
  if (n.reason === "integer past 2^53") return `${sign}${literalBigInt(body).toString()}`;
  // A float such as 1e400 or 1e-400: its text when JSON can write it as it is, normalised otherwise.
  const normal = `${sign}${body
    .replace(/^\./, "0.")
    .replace(/\.(?=[eE]|$)/, ".0")
    .replace(/^0+(?=\d)/, "")}`;
  return JSON_NUMBER.test(normal) ? normal : (JSON.stringify(n.value) ?? "null");
}

/**
 * Parses one Python literal (the whole text, surrounding whitespace allowed).
 * Dict keys are converted to strings (`{1: 'a'}` → `{ "1": "a" }`); `__proto__` is an ordinary key.
 * Numbers are plain doubles here: use {@link readPythonLiteral} to keep and list the inexact ones.
 */
export function parsePythonLiteral(text: string): E.Either<PythonLiteralError, PythonValue> {
  const r = readPythonLiteral(text);
  return E.isLeft(r) ? r : E.right(plainValue(r.right));
}
