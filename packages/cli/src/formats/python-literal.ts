/**
 * A parser for the subset of Python literal syntax that agent frameworks write with `repr()`:
 * dicts, lists, tuples, strings (both quote styles, triple quotes, `r`/`u`/`b` prefixes, escapes,
 * adjacent-literal concatenation), `True` / `False` / `None`, ints and floats.
 * It never evaluates anything: unknown syntax is a typed error with its offset.
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
export type PythonValue = null | boolean | number | string | readonly PythonValue[] | { readonly [key: string]: PythonValue };

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

  value(depth: number): PythonValue {
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
    for (const [word, v] of [["True", true], ["False", false], ["None", null]] as const) {
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
      if (c === "'" || c === '"' || (c !== undefined && /[rRuUbB]/.test(c) && this.stringPrefixLength() > 0)) out += this.string();
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

  number(): number {
    const m = /^[+-]?(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][+-]?\d+)?\.?)/.exec(this.src.slice(this.pos, this.pos + 400));
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
    return sign * n;
  }

  sequence(closer: "]" | ")", depth: number): PythonValue[] {
    this.pos++;
    const items: PythonValue[] = [];
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

  dict(depth: number): { [key: string]: PythonValue } {
    this.pos++;
    const out: { [key: string]: PythonValue } = {};
    for (;;) {
      this.skipSpace();
      if (this.src[this.pos] === "}") {
        this.pos++;
        return out;
      }
      const keyAt = this.pos;
      const key = this.value(depth + 1);
      if (typeof key === "object" && key !== null) this.fail("a dict key must be a string, number, bool or None", keyAt);
      this.skipSpace();
      if (this.src[this.pos] !== ":") this.fail('expected ":" after a dict key');
      this.pos++;
      const v = this.value(depth + 1);
      Object.defineProperty(out, String(key), { value: v, enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === ",") this.pos++;
      else if (c !== "}") this.fail(c === undefined ? "unexpected end of input" : 'expected "," or "}"');
    }
  }
}

/**
 * Parses one Python literal (the whole text, surrounding whitespace allowed).
 * Dict keys are converted to strings (`{1: 'a'}` → `{ "1": "a" }`); `__proto__` is an ordinary key.
 */
export function parsePythonLiteral(text: string): E.Either<PythonLiteralError, PythonValue> {
  const p = new Parser(text);
  try {
    const v = p.value(0);
    p.skipSpace();
    if (p.pos < text.length) p.fail("unexpected text after the literal");
    return E.right(v);
  } catch (e: unknown) {
    if (e instanceof Failure) return E.left({ _tag: "PythonLiteralError", offset: e.offset, message: e.message });
    if (e instanceof RangeError) return E.left({ _tag: "PythonLiteralError", offset: p.pos, message: "input too deeply nested" });
    throw e;
  }
}
