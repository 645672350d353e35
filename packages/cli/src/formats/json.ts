/**
 * JSON parsing that reports where the text went wrong as a 1-based line and column.
 * `JSON.parse` does the work; when its message carries no position, a small well-formedness
 * scanner finds the offset of the first error.
 *
 * @module formats/json
 */
import * as E from "fp-ts/lib/Either.js";

/** Where and why JSON text is malformed (1-based line and column, UTF-16 columns). */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly detail: string;
}

/** 1-based line and column of a UTF-16 offset in `text` (`\n` ends a line). */
export function lineColumn(text: string, offset: number): { readonly line: number; readonly column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

const WS = new Set([" ", "\t", "\n", "\r"]);

/**
 * Offset of the first syntax error in `text` (`text.length` when it ends too early), or
 * `undefined` when `text` is one well-formed JSON value. Scans without building values.
 */
export function firstJsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const literal = (word: string): boolean => {
    for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return false;
    return true;
  };
  const str = (): boolean => {
    i++;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const n = text[i + 1];
        if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else if (n === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else {
          i++;
          return false;
        }
      } else i++;
    }
    return false;
  };
  const num = (): boolean => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null) return false;
    i += m[0].length;
    return true;
  };
  const key = (): boolean => {
    ws();
    if (text[i] !== '"' || !str()) return false;
    ws();
    if (text[i] !== ":") return false;
    i++;
    return true;
  };
  // A state machine over an explicit stack of open containers (no recursion: deep input is fine).
  const stack: ("{" | "[")[] = [];
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      ws();
      const c = text[i];
      if (c === "{" || c === "[") {
        stack.push(c);
        i++;
        ws();
        if (text[i] === (c === "{" ? "}" : "]")) {
          stack.pop();
          i++;
          expectValue = false;
        } else if (c === "{" && !key()) return Math.min(i, text.length);
        continue;
      }
      const ok =
        c === '"'
          ? str()
          : c === "t"
            ? literal("true")
            : c === "f"
              ? literal("false")
              : c === "n"
                ? literal("null")
                : num();
      if (!ok) return Math.min(i, text.length);
      expectValue = false;
      continue;
    }
    const top = stack[stack.length - 1];
    ws();
    if (top === undefined) return i === text.length ? undefined : i;
    if (text[i] === ",") {
      i++;
      if (top === "{" && !key()) return Math.min(i, text.length);
      expectValue = true;
    } else if (text[i] === (top === "{" ? "}" : "]")) {
      stack.pop();
      i++;
    } else return Math.min(i, text.length);
  }
}

/** `JSON.parse` as an Either whose error names the line and column. */
export function parseJson(text: string): E.Either<JsonSyntaxError, unknown> {
  try {
    return E.right(JSON.parse(text) as unknown);
  } catch (e: unknown) {
    const message = e instanceof Error ? e.message : String(e);
    const m = /at position (\d+)/.exec(message);
    const offset = m !== null ? Number(m[1]) : (firstJsonErrorOffset(text) ?? text.length);
    const detail = message.replace(/,? ".*" is not valid JSON$/s, "").replace(/ in JSON at position \d+.*$/s, "");
    return E.left({ ...lineColumn(text, offset), detail });
  }
}
