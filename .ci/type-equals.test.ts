// The type equality the options-type tests rely on tells apart what an options type and its codec
// could disagree on, and sees through the intersections an object codec's type is made of.
import { describe, expect, it } from "vitest";
import { assertEquals, type Equals } from "./support/type-equals.js";

type Not<B extends boolean> = B extends true ? false : true;

describe("Equals", () => {
  it("is true for the same type written as an intersection, nested too", () => {
    expect(
      assertEquals<
        Equals<
          { readonly a: number } & { readonly b?: { readonly c: string } & { readonly d: 1 } },
          { readonly a: number; readonly b?: { readonly c: string; readonly d: 1 } }
        >
      >(true),
    ).toBe(true);
    expect(assertEquals<Equals<readonly ({ a: 1 } & { b: 2 })[], readonly { a: 1; b: 2 }[]>>(true)).toBe(true);
  });

  it("is false for a missing or extra field, an optional mark, readonly, a member type, unknown", () => {
    expect(assertEquals<Not<Equals<{ a: number }, { a: number; policy?: string }>>>(true)).toBe(true);
    expect(assertEquals<Not<Equals<{ a?: number }, { a: number }>>>(true)).toBe(true);
    expect(assertEquals<Not<Equals<{ readonly a: number }, { a: number }>>>(true)).toBe(true);
    expect(assertEquals<Not<Equals<{ a: number }, { a: number | undefined }>>>(true)).toBe(true);
    expect(assertEquals<Not<Equals<{ a: unknown }, { a: { write(): void } }>>>(true)).toBe(true);
    expect(assertEquals<Not<Equals<{ f: () => number }, { f: (...args: never[]) => unknown }>>>(true)).toBe(true);
    expect(assertEquals<Not<Equals<readonly number[], number[]>>>(true)).toBe(true);
  });
});
