// Secret redaction: configured keys, bearer tokens, sk- keys and URL credentials never survive.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactSecrets } from "../src/providers/redact.js";

const numRuns = process.env["CI"] !== undefined ? 1000 : 300;
const keyChars = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".split(""));
const tokenChars = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/=".split(""));
const separator = fc.constantFrom(" ", "\n", "\t", ": ", "\"", "'", "(", ", ", "=", "");
const text = fc.string({ maxLength: 40, unit: "grapheme" });

describe("redactSecrets", () => {
  it("removes the examples of each kind", () => {
    expect(redactSecrets("401: bad key sk-abcdefgh1234 for https://me:pw@api.example/v1 (Authorization: Bearer abc.def)")).toBe(
      "401: bad key sk-*** for https://***@api.example/v1 (Authorization: Bearer ***)",
    );
    expect(redactSecrets("http://u:p@ss:w@127.0.0.1:8080/v1 and ok@example.org")).toBe("http://***@127.0.0.1:8080/v1 and ok@example.org");
    expect(redactSecrets("key my-own-secret-42 and \"my-own-secret-42\"", ["my-own-secret-42"])).toBe("key *** and \"***\"");
    expect(redactSecrets("short k stays", ["k"])).toBe("short k stays");
    expect(redactSecrets("a task-manager; risk-assessed")).toBe("a task-manager; risk-assessed");
    expect(redactSecrets("key=0sk-abcdefghijklmnopqrst.")).toBe("key=0sk-***.");
  });

  it("property: a configured key (any characters, ≥ 6) never survives, as is, URL-encoded or JSON-escaped", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 6, maxLength: 40, unit: "binary" }), text, text, fc.constantFrom("raw", "url", "json", "header", "userinfo"), (key, before, after, form) => {
        let shown = key;
        try {
          if (form === "url") shown = encodeURIComponent(key);
        } catch {
          shown = key;
        }
        if (form === "json") shown = JSON.stringify(key).slice(1, -1);
        if (form === "header") shown = `Authorization: Bearer ${key}`;
        if (form === "userinfo") shown = `https://user:${key}@127.0.0.1/v1`;
        const out = redactSecrets(`${before}${shown}${after}`, [key]);
        expect(out).not.toContain(key);
        if (shown !== key && shown.length >= 6 && form !== "header" && form !== "userinfo") expect(out).not.toContain(shown);
      }),
      { numRuns },
    );
  });

  it("property: sk- keys, bearer tokens and URL credentials are removed without being configured", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 16, maxLength: 48, unit: keyChars }),
        fc.string({ minLength: 8, maxLength: 48, unit: tokenChars }),
        fc.string({ minLength: 8, maxLength: 24, unit: keyChars }),
        text,
        separator,
        separator,
        (rest, token, password, filler, open, close) => {
          const key = `sk-${rest}`;
          fc.pre(!filler.includes(token) && !filler.includes(password) && !filler.includes(rest));
          const input = `${filler}${open}${key}${close}${filler} Authorization: Bearer ${token}${close}https://me:${encodeURIComponent(password)}@127.0.0.1/v1${close}${filler}`;
          const out = redactSecrets(input);
          expect(out).not.toContain(rest);
          expect(out).not.toContain(token);
          expect(out).not.toContain(password);
        },
      ),
      { numRuns },
    );
  });
});
