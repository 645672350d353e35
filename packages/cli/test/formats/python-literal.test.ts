import { describe, it, expect } from "vitest";
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { parsePythonLiteral, type PythonValue } from "../../src/formats/python-literal.js";
import { numRuns } from "../trajectories.js";

/** Renders a value the way Python's repr() would (single quotes preferred, escapes for the rest). */
function repr(v: PythonValue): string {
  if (v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === "string") {
    const q = v.includes("'") && !v.includes('"') ? '"' : "'";
    let out = q;
    for (const ch of v) {
      const cp = ch.codePointAt(0)!;
      if (ch === "\\") out += "\\\\";
      else if (ch === q) out += `\\${q}`;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\t") out += "\\t";
      else if (ch === "\r") out += "\\r";
      else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
      else if (cp >= 0xd800 && cp <= 0xdfff) out += `\\u${cp.toString(16)}`;
      else out += ch;
    }
    return out + q;
  }
  if (Array.isArray(v)) return `[${(v as readonly PythonValue[]).map(repr).join(", ")}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${repr(k)}: ${repr(x)}`)
    .join(", ")}}`;
}

const pyValue: fc.Arbitrary<PythonValue> = fc.letrec<{ v: PythonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    fc.string({ unit: "binary" }),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.string({ unit: "grapheme" }), tie("v"), { maxKeys: 4 }),
  ),
})).v;

describe("parsePythonLiteral", () => {
  it("parses the tool_calls repr SWE-agent writes", () => {
    const text = `[{'function': {'arguments': '{"command":"ls -F"}', 'name': 'bash'}, 'id': 'call_abc', 'type': 'function'}]`;
    expect(parsePythonLiteral(text)).toEqual(
      E.right([{ function: { arguments: '{"command":"ls -F"}', name: "bash" }, id: "call_abc", type: "function" }]),
    );
  });

  it("handles both quote styles, escapes, prefixes, triple quotes and concatenation", () => {
    expect(parsePythonLiteral(`"it's" 'a \\'b\\'' r'\\d+' u'\\u00e9\\U0001F600\\x41\\101' '''x\ny'''`)).toEqual(
      E.right("it'sa 'b'\\d+é😀AAx\ny"),
    );
  });

  it("parses True/False/None, numbers, tuples and trailing commas", () => {
    expect(parsePythonLiteral("(True, False, None, -3, 2.5e3, 0x1f, 1_000, [1,],)")).toEqual(
      E.right([true, false, null, -3, 2500, 31, 1000, [1]]),
    );
  });

  it("keeps unknown escapes verbatim, as Python does", () => {
    expect(parsePythonLiteral("'a\\qb'")).toEqual(E.right("a\\qb"));
  });

  it("treats __proto__ as an ordinary key", () => {
    const r = parsePythonLiteral("{'__proto__': {'polluted': 1}}");
    expect(E.isRight(r) && Object.keys(r.right as object)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("names the offset of what it cannot parse, never evaluates", () => {
    for (const [text, offset] of [
      ["[1, 2", 5],
      ["{'a' 1}", 5],
      ["__import__('os')", 0],
      ["'abc", 0],
      ["[1] x", 4],
      ["{[1]: 2}", 1],
    ] as const) {
      const r = parsePythonLiteral(text);
      expect(E.isLeft(r) && r.left.offset, text).toBe(offset);
    }
  });

  it("rejects absurd nesting with a value, not a stack overflow", () => {
    const r = parsePythonLiteral("[".repeat(100_000));
    expect(E.isLeft(r) && r.left._tag).toBe("PythonLiteralError");
  });

  it("round-trips repr of arbitrary values (lone surrogates, CJK, emoji included)", () => {
    fc.assert(
      fc.property(pyValue, (v) => {
        expect(parsePythonLiteral(repr(v))).toEqual(E.right(v));
      }),
      { numRuns },
    );
  });

  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string({
            unit: fc.constantFrom("[", "]", "{", "}", "'", '"', "\\", ":", ",", "1", "True", "u", "r", " "),
          }),
        ),
        (s) => {
          const r = parsePythonLiteral(s);
          expect(r._tag === "Left" || r._tag === "Right").toBe(true);
        },
      ),
      { numRuns },
    );
  });
});
