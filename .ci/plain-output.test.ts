import { describe, expect, it } from "vitest";
import { plainWhenNotTTY, stripAnsi } from "./plain-output.js";

function fakeStream(isTTY: boolean): {
  stream: { isTTY: boolean; write: (chunk: never, ...rest: never[]) => boolean };
  written: unknown[];
} {
  const written: unknown[] = [];
  const stream = {
    isTTY,
    write: ((chunk: unknown) => {
      written.push(chunk);
      return true;
    }) as (chunk: never, ...rest: never[]) => boolean,
  };
  return { stream, written };
}

describe("test output without a terminal", () => {
  it("strips colours, cursor moves and hyperlinks, keeps the text", () => {
    expect(
      stripAnsi(
        "\u001b[2m Duration \u001b[22m 1.2s\u001b[?25l\u001b[1A\u001b[2K \u001b]8;;file:///x\u0007x\u001b]8;;\u0007",
      ),
    ).toBe(" Duration  1.2s x");
  });

  it("a piped stream writes plain text", () => {
    const { stream, written } = fakeStream(false);
    expect(plainWhenNotTTY(stream)).toBe(true);
    (stream.write as unknown as (s: string) => boolean)("\u001b[32m✓\u001b[39m 3 passed");
    expect(written).toEqual(["✓ 3 passed"]);
  });

  it("a terminal keeps its colours", () => {
    const { stream, written } = fakeStream(true);
    expect(plainWhenNotTTY(stream)).toBe(false);
    (stream.write as unknown as (s: string) => boolean)("\u001b[32m✓\u001b[39m");
    expect(written).toEqual(["\u001b[32m✓\u001b[39m"]);
  });
});
