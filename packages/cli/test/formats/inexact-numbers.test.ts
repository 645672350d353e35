// Numbers a double cannot hold (1e400, inf, nan, integers past 2^53) in Python-literal
// transcripts: never changed silently — each is a warning naming where it is, and tool-call
// arguments keep their exact digits.
import { describe, expect, it } from "vitest";
import * as E from "fp-ts/lib/Either.js";
import { readTraj } from "@cc/cli";
import {
  inexactNumbers,
  literalJson,
  parsePythonLiteral,
  readPythonLiteral,
} from "../../src/formats/python-literal.js";
import { runCli } from "../run-cli.js";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const read = (text: string) => {
  const r = readPythonLiteral(text);
  if (E.isLeft(r)) throw new Error(r.left.message);
  return r.right;
};

/** A SWE-agent trajectory whose tool_calls is the Python repr of a call with `args`. */
const traj = (args: string): string =>
  JSON.stringify({
    history: [
      { role: "user", content: "Set the limits" },
      {
        role: "assistant",
        content: "Setting them.",
        tool_calls: `[{'id': 'call_1', 'type': 'function', 'function': {'name': 'configure', 'arguments': ${args}}}]`,
      },
      { role: "tool", content: "ok", tool_call_ids: "['call_1']" },
    ],
  });

describe("readPythonLiteral", () => {
  it("lists every inexact number with its path, offset and reason", () => {
    const v = read(
      "{'a': 1e400, 'b': [1, 123456789012345678901], 'c': inf, 'd': -inf, 'e': nan, 'f': 2.5, 'g': 9007199254740993, 'h': 1e-400, 'i': 0x1_0000_0000_0000_0001}",
    );
    expect(inexactNumbers(v).map((n) => [n.path, n.text, n.reason])).toEqual([
      [".a", "1e400", "beyond the range of a double"],
      [".b[1]", "123456789012345678901", "integer past 2^53"],
      [".c", "inf", "infinite"],
      [".d", "-inf", "infinite"],
      [".e", "nan", "not a number"],
      [".g", "9007199254740993", "integer past 2^53"],
      [".h", "1e-400", "below the smallest double"],
      [".i", "0x10000000000000001", "integer past 2^53"],
    ]);
    expect(inexactNumbers(v)[0]?.offset).toBe(6);
  });

  it("exact numbers are not listed: safe integers, decimal fractions, powers of two past 2^53", () => {
    expect(inexactNumbers(read("[0, -3, 0.1, 2.5e3, 9007199254740991, 18446744073709551616, 0.0, 0e5]"))).toEqual([]);
  });

  it("literalJson keeps the exact digits; inf and nan, which JSON has not, are null", () => {
    expect(
      literalJson(
        read("{'n': 1e400, 'big': -123456789012345678901, 'hex': 0x10000000000000001, 'f': .5e400, 'x': [inf, 1.5]}"),
      ),
    ).toBe('{"n":1e400,"big":-123456789012345678901,"hex":18446744073709551617,"f":0.5e400,"x":[null,1.5]}');
  });

  it("parsePythonLiteral reads inf and nan (Python's repr of a float) as numbers", () => {
    expect(parsePythonLiteral("[inf, -inf, 1]")).toEqual(
      E.right([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1]),
    );
    expect(parsePythonLiteral("[infinity]")._tag).toBe("Left");
  });
});

describe("readTraj", () => {
  it("a dict of arguments keeps 1e400 and a 21-digit integer exactly, each with a warning naming where", () => {
    const r = readTraj(traj("{'limit': 1e400, 'seed': 123456789012345678901, 'ratio': 0.5}"), "t.traj");
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    const call = r.right.messages[1]?.role === "assistant" ? r.right.messages[1].toolCalls?.[0] : undefined;
    expect(call?.arguments).toBe('{"limit":1e400,"seed":123456789012345678901,"ratio":0.5}');
    expect(r.right.warnings).toHaveLength(2);
    expect(r.right.warnings[0]).toMatch(
      /^history\[1\]\.tool_calls\[0\]\.function\.arguments\.limit: the number 1e400 is beyond the range of a double, read as Infinity; its exact digits are kept/,
    );
    expect(r.right.warnings[1]).toMatch(
      /^history\[1\]\.tool_calls\[0\]\.function\.arguments\.seed: the number 123456789012345678901 is integer past 2\^53/,
    );
  });

  it("inf in the arguments is a warning saying it is written as null", () => {
    const r = readTraj(traj("{'limit': inf}"), "t.traj");
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    const call = r.right.messages[1]?.role === "assistant" ? r.right.messages[1].toolCalls?.[0] : undefined;
    expect(call?.arguments).toBe('{"limit":null}');
    expect(r.right.warnings).toEqual([
      expect.stringMatching(
        /^history\[1\]\.tool_calls\[0\]\.function\.arguments\.limit: the number inf is infinite; written as null in JSON text/,
      ),
    ]);
  });

  it("arguments given as a JSON string inside the literal are kept as written, without a warning", () => {
    const r = readTraj(traj(`'{"limit": 1e400, "seed": 123456789012345678901}'`), "t.traj");
    if (E.isLeft(r)) throw new Error(JSON.stringify(r.left));
    const call = r.right.messages[1]?.role === "assistant" ? r.right.messages[1].toolCalls?.[0] : undefined;
    expect(call?.arguments).toBe('{"limit": 1e400, "seed": 123456789012345678901}');
    expect(r.right.warnings).toEqual([]);
  });
});

const dir = mkdtempSync(join(tmpdir(), "cc-inexact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("cc-compact", () => {
  it("reports the warning in its output", async () => {
    const file = join(dir, "limits.traj");
    writeFileSync(file, traj("{'limit': 1e400}"));
    const r = await runCli([file, "-b", "4000"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "warning   history[1].tool_calls[0].function.arguments.limit: the number 1e400 is beyond the range of a double",
    );
    expect(r.stdout).toContain("1e400");
  });
});
