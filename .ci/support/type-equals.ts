// Type-level equality for tests that tie an options type to its codec: `Equals<A, B>` is `true`
// only when A and B are the same type once intersections are flattened (deeply), so
// `t.TypeOf<typeof Codec>` (an intersection of required and optional fields) compares equal to
// the interface it decodes, and a field, an optional mark, a `readonly` or a member type that
// differs makes it `false`. `assertType<Equals<A, B>>(true)` fails to compile otherwise.

/** T with every object (not function) type flattened into one object type, recursively. */
export type Normal<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly unknown[]
    ? { [K in keyof T]: Normal<T[K]> }
    : T extends object
      ? { [K in keyof T]: Normal<T[K]> }
      : T;

/** `true` when A and B are identical after {@link Normal}, else `false`. */
export type Equals<A, B> =
  (<X>() => X extends Normal<A> ? 1 : 2) extends <X>() => X extends Normal<B> ? 1 : 2 ? true : false;

/** Compiles only with `true`: `assertEquals<Equals<A, B>>(true)`. Returns its argument (a test can also expect it). */
export const assertEquals = <Verdict extends true>(verdict: Verdict): Verdict => verdict;
