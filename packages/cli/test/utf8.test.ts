import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { decodeTranscriptBytes, firstInvalidUtf8 } from "../src/formats/utf8.js";

const fatalOk = (b: Uint8Array): boolean => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

/** Valid UTF-8 of arbitrary text mixed with arbitrary bytes (so both valid and broken multi-byte forms occur). */
const mixedBytes = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 4 }).map((t) => new TextEncoder().encode(t)),
      fc.uint8Array({ maxLength: 4 }),
      fc.uint8Array({ minLength: 1, maxLength: 3, min: 0x80, max: 0xff }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => new Uint8Array(parts.flatMap((p) => [...p])));

describe("UTF-8 checking of transcript bytes", () => {
  test.prop([mixedBytes])("firstInvalidUtf8 agrees with the fatal TextDecoder on any bytes", (bytes) => {
    const at = firstInvalidUtf8(bytes);
    expect(at === undefined).toBe(fatalOk(bytes));
    // Everything before the offset is valid on its own.
    if (at !== undefined) expect(fatalOk(bytes.subarray(0, at))).toBe(true);
  });

  test.prop([fc.string({ unit: "grapheme-ascii" }), fc.string({ unit: "grapheme" })])(
    "the offset is where the first bad byte sits after valid text",
    (before, after) => {
      const head = new TextEncoder().encode(before);
      const bytes = new Uint8Array([...head, 0xff, ...new TextEncoder().encode(after)]);
      expect(firstInvalidUtf8(bytes)).toBe(head.length);
      expect(decodeTranscriptBytes(bytes, "x").warning).toContain(`invalid UTF-8 at byte offset ${head.length}`);
    },
  );

  it("valid text decodes with no warning; overlong, surrogate and truncated forms are found", () => {
    expect(decodeTranscriptBytes(new TextEncoder().encode("café ✓ 😀"), "x")).toEqual({
      text: "café ✓ 😀",
      warning: undefined,
    });
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2);
    expect(firstInvalidUtf8(new Uint8Array([0xe2, 0x9c]))).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
  });
});
