// The README's example, executed.
import * as E from "fp-ts/lib/Either.js";
import type * as t from "io-ts";
import { expect, it, vi } from "vitest";
import { callback, CcError, decodeOrThrow, decodeWith, intIn, objectCodec, withMethods } from "@cc/validate";

it("README: an options codec with a collaborator and a callback, decoded or thrown", () => {
  const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
  interface Counter {
    count(text: string): number;
  }
  const WorkerOptionsCodec = objectCodec(
    "WorkerOptions",
    { counter: withMethods<Counter>("Counter", ["count"]) },
    { retries: intIn(0, 20), now: callback<() => number>() },
  );
  type WorkerOptions = t.TypeOf<typeof WorkerOptionsCodec>;
  const decodeWorkerOptions = decodeWith(WorkerOptionsCodec, "InvalidOptions", "worker options");

  const bad = decodeWorkerOptions({ counter: { count: (s: string) => s.length }, retrys: 3 });
  // Left: { _tag: "InvalidOptions", subject: "worker options", problems: [{ path: "retrys", message: "retrys: unknown field (did you mean retries?)" }], … }
  const good: WorkerOptions = decodeOrThrow(decodeWorkerOptions, {
    counter: { count: (s: string) => s.length },
    retries: 2,
  });
  // A factory that returns a plain object throws instead: a CcError (the one error class of @cc) carrying the same _tag, subject and problems.
  try {
    decodeOrThrow(decodeWorkerOptions, { counter: {}, retries: Number.NaN });
  } catch (e) {
    if (e instanceof CcError) console.error(e._tag, e.subject, e.problems.length);
  }

  expect(bad).toMatchObject({
    _tag: "Left",
    left: {
      _tag: "InvalidOptions",
      subject: "worker options",
      problems: [{ path: "retrys", message: "retrys: unknown field (did you mean retries?)" }],
    },
  });
  expect(E.isLeft(bad)).toBe(true);
  expect(good.counter.count("abcd") + (good.retries ?? 0)).toBe(6);
  expect(logged).toHaveBeenCalledWith("InvalidOptions", "worker options", 2);
  expect(() => decodeOrThrow(decodeWorkerOptions, {})).toThrow(CcError);
  logged.mockRestore();
});
