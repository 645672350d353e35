// Pure parts of the PostgreSQL fault handling: error classes, timeout options, unknown keys.
import * as fc from "fast-check";
import * as E from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PG_CONNECT_TIMEOUT_MS,
  DEFAULT_PG_STATEMENT_TIMEOUT_MS,
  classifyPgError,
  pgPoolTimeoutSettings,
  resolvePgTimeouts,
} from "@cc/test-support/search";
import { runsFor } from "../../../.ci/support/runs.js";
const runs = (n: number): number => runsFor(Math.min(n, 200), n);

const pgError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe("classifyPgError", () => {
  it("names lost connections, timeouts and retryable transaction failures", () => {
    expect(classifyPgError(pgError("57P01", "terminating connection due to administrator command"))).toBe(
      "connectionLost",
    );
    expect(classifyPgError(pgError("57P02", "terminating connection because of crash of another server process"))).toBe(
      "connectionLost",
    );
    expect(classifyPgError(pgError("08006", "connection failure"))).toBe("connectionLost");
    expect(classifyPgError(pgError("ECONNRESET", "read ECONNRESET"))).toBe("connectionLost");
    expect(classifyPgError(new Error("Connection terminated unexpectedly"))).toBe("connectionLost");
    expect(classifyPgError(new Error("Connection terminated due to connection timeout"))).toBe("timeout");
    expect(classifyPgError(new Error("timeout exceeded when trying to connect"))).toBe("timeout");
    expect(classifyPgError(new Error("Query read timeout"))).toBe("timeout");
    expect(classifyPgError(pgError("57014", "canceling statement due to statement timeout"))).toBe("timeout");
    expect(classifyPgError(pgError("40P01", "deadlock detected"))).toBe("retryable");
    expect(classifyPgError(pgError("40001", "could not serialize access"))).toBe("retryable");
    expect(classifyPgError(pgError("23505", "duplicate key value"))).toBe("other");
    // A server that refuses or cannot be reached is restarting or failing over: transient, like a broken connection.
    expect(classifyPgError(pgError("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:1"))).toBe("connectionLost");
    expect(classifyPgError(pgError("EHOSTUNREACH", "connect EHOSTUNREACH 10.0.0.9:5432"))).toBe("connectionLost");
    expect(classifyPgError(pgError("ENOTFOUND", "getaddrinfo ENOTFOUND db.invalid"))).toBe("other");
    expect(classifyPgError(pgError("28P01", 'password authentication failed for user "x"'))).toBe("other");
    expect(classifyPgError("a string")).toBe("other");
    expect(classifyPgError(undefined)).toBe("other");
  });
});

describe("resolvePgTimeouts", () => {
  it("defaults, then the URL, then the options", () => {
    expect(resolvePgTimeouts({}, "postgres://h/db")).toEqual(
      E.right({ connectTimeoutMs: DEFAULT_PG_CONNECT_TIMEOUT_MS, statementTimeoutMs: DEFAULT_PG_STATEMENT_TIMEOUT_MS }),
    );
    expect(resolvePgTimeouts({}, "postgres://h/db?connect_timeout=3&statement_timeout=700")).toEqual(
      E.right({ connectTimeoutMs: 3000, statementTimeoutMs: 700 }),
    );
    expect(
      resolvePgTimeouts({ connectTimeoutMs: 5, statementTimeoutMs: 0 }, "postgres://h/db?connect_timeout=3"),
    ).toEqual(E.right({ connectTimeoutMs: 5, statementTimeoutMs: 0 }));
    expect(resolvePgTimeouts({}, "not a url")).toEqual(
      E.right({ connectTimeoutMs: DEFAULT_PG_CONNECT_TIMEOUT_MS, statementTimeoutMs: DEFAULT_PG_STATEMENT_TIMEOUT_MS }),
    );
    expect(pgPoolTimeoutSettings({ connectTimeoutMs: 5, statementTimeoutMs: 0 })).toEqual({
      connectionTimeoutMillis: 5,
    });
  });

  it("property: accepts exactly the integers in 0..2^31-1, and names the field of anything else", () => {
    const valid = fc.integer({ min: 0, max: 2_147_483_647 });
    const invalid = fc.oneof(
      fc.constantFrom(
        Number.NaN,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        -1,
        0.5,
        2_147_483_648,
        "10",
        null,
        true,
      ),
      fc.double().filter((d) => !Number.isInteger(d) || d < 0),
    );
    fc.assert(
      fc.property(valid, (ms) => {
        expect(resolvePgTimeouts({ connectTimeoutMs: ms, statementTimeoutMs: ms }, "")).toEqual(
          E.right({ connectTimeoutMs: ms, statementTimeoutMs: ms }),
        );
      }),
      { numRuns: runs(200) },
    );
    fc.assert(
      fc.property(invalid, fc.constantFrom("connectTimeoutMs", "statementTimeoutMs"), (bad, field) => {
        const r = resolvePgTimeouts({ [field]: bad } as never, "");
        expect(E.isLeft(r) && r.left.length === 1 && r.left[0]!.startsWith(`${field}:`)).toBe(true);
      }),
      { numRuns: runs(200) },
    );
  });
});
