// Secret redaction: configured keys, bearer tokens, sk- keys and URL credentials never survive.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRedactor, redactSecrets } from "../src/providers/redact.js";
import { exposedRun, SECRET_FORMS, showSecret } from "./secret-forms.js";
import { runsFor } from "../../../.ci/support/runs.js";

const numRuns = runsFor(300, 1000);
const keyChars = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".split(""));
const tokenChars = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~+/=".split(""),
);
const separator = fc.constantFrom(" ", "\n", "\t", ": ", '"', "'", "(", ", ", "=", "");
const text = fc.string({ maxLength: 40, unit: "grapheme" });

describe("redactSecrets", () => {
  it("removes the examples of each kind", () => {
    expect(
      redactSecrets("401: bad key sk-abcdefgh1234 for https://me:pw@api.example/v1 (Authorization: Bearer abc.def)"),
    ).toBe("401: bad key sk-*** for https://***@api.example/v1 (Authorization: Bearer ***)");
    expect(redactSecrets("http://u:p@ss:w@127.0.0.1:8080/v1 and ok@example.org")).toBe(
      "http://***@127.0.0.1:8080/v1 and ok@example.org",
    );
    expect(redactSecrets('key my-own-secret-42 and "my-own-secret-42"', ["my-own-secret-42"])).toBe(
      'key *** and "***"',
    );
    expect(redactSecrets("short k stays", ["k"])).toBe("short k stays");
    expect(redactSecrets("a task-manager; risk-assessed")).toBe("a task-manager; risk-assessed");
    expect(redactSecrets("id=0sk-abcdefghijklmnopqrst.")).toBe("id=0sk-***.");
    expect(redactSecrets("key=0sk-abcdefghijklmnopqrst.")).toBe("key=***");
  });

  it("property: a configured key (any characters, ≥ 6) never survives, as is, URL-encoded or JSON-escaped", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 6, maxLength: 40, unit: "binary" }),
        text,
        text,
        fc.constantFrom("raw", "url", "json", "header", "userinfo"),
        (key, before, after, form) => {
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
          if (shown !== key && shown.length >= 6 && form !== "header" && form !== "userinfo")
            expect(out).not.toContain(shown);
        },
      ),
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

const keyAlphabet = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=!#$%&*()[]{}:;,<>?|\\\"'`^@éü€".split(""),
);
const credentialNames = [
  "key",
  "api_key",
  "apikey",
  "apiKey",
  "api-key",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "secret",
  "password",
  "pwd",
  "X-Amz-Signature",
  "X-Amz-Credential",
  "sig",
  "auth",
  "x-goog-api-key",
];

describe("redactSecrets: every form of a configured key", () => {
  const key = "sk-live-0123456789abcdefghijXYZ";
  it("removes the key split over lines, \\u-escaped, base64, hex, spaced, percent-encoded, and its runs of 8+", () => {
    for (const form of SECRET_FORMS) {
      const shown = showSecret(key, form, 0.4);
      const out = redactSecrets(`{"error":{"message":"Incorrect API key provided: ${shown}. Check it."}}`, [key]);
      expect(exposedRun(out, key), `${form}: ${out}`).toBeUndefined();
      expect(out, form).toContain("Incorrect API key provided: ");
      expect(out, form).toContain("Check it.");
    }
    expect(redactSecrets(`last 14: ${key.slice(-14)}.`, [key])).toBe("last 14: ***.");
    expect(redactSecrets(`split: ${key.slice(0, 10)}\n${key.slice(10)} end`, [key])).toBe("split: *** end");
  });

  it("leaves text without 8 characters of the key in a row alone", () => {
    const text = `the ${key.slice(0, 7)} and ${key.slice(9, 16)} parts, 0123456 and XYZ`;
    expect(redactSecrets(text, [key])).toBe(text);
  });

  it("a redactor built once gives what redactSecrets gives", () => {
    const redact = createRedactor([key, undefined, "pw-0000-long"]);
    const text = `${Buffer.from(key).toString("base64")} pw-0000-long ?token=abc`;
    expect(redact(text)).toBe(redactSecrets(text, [key, "pw-0000-long"]));
    expect(redact(text)).not.toContain("pw-0000");
  });

  it("property: no reading of the output shows the key or any 8-character run of it, whatever the form", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 48, unit: keyAlphabet }),
        fc.constantFrom(...SECRET_FORMS),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        text,
        text,
        (key, form, cut, before, after) => {
          const shown = showSecret(key, form, cut);
          const out = redactSecrets(`${before} ${shown} ${after}`, [key]);
          expect(exposedRun(out, key), `${form}: ${JSON.stringify(out)}`).toBeUndefined();
        },
      ),
      { numRuns },
    );
  });

  it("a key shown verbatim just before text that reads as a percent-escape with it (`$%` then `61…`) is removed", () => {
    // Found by the property below (seed 261022544): normalising read `%\n61` as an escaped `a`.
    expect(redactSecrets("aaaaaa$%\n6161616161612425\naaaaaa$%", ["aaaaaaaa", "aaaaaa$%"])).toBe("***\n***\n***");
  });

  it("a key's own backslash before a \\u-escaped character (a JSON encoder escaping letters) is removed", () => {
    // Found by the property below (seed -1423718275): every run of backslashes read as one lost the
    // key's backslash in `\\\u0074`, so the key `a\ta€aaaaa` shown that way survived.
    const key = "a\\ta€aaaaa";
    expect(redactSecrets(String.raw`\u0061\\\u0074a\u20aca\u0061a\u0061a`, [key])).toBe("***");
    expect(redactSecrets(String.raw`x \u005cta\u20acaaaaa y`, [key])).toBe("x *** y");
  });

  it("a key holding a backslash and `v`, spaced out, is removed (normalising reads `\\v` as white space)", () => {
    // Found by the property below (seed 281885835).
    expect(redactSecrets("a a \\ v \\ a a a", ["aaaaaaaa", "aa\\v\\aaa"])).toBe("***");
  });

  it("property: two configured keys, each shown several times in different forms, are all removed", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40, unit: keyAlphabet }),
        fc.string({ minLength: 8, maxLength: 40, unit: keyAlphabet }),
        fc.array(
          fc.tuple(
            fc.boolean(),
            fc.constantFrom(...SECRET_FORMS),
            fc.double({ min: 0, max: 0.999, noNaN: true }),
            text,
          ),
          { minLength: 1, maxLength: 6 },
        ),
        (a, b, shows) => {
          const out = redactSecrets(
            shows.map(([first, form, cut, filler]) => `${filler}${showSecret(first ? a : b, form, cut)}`).join("\n"),
            [a, b],
          );
          expect(exposedRun(out, a)).toBeUndefined();
          expect(exposedRun(out, b)).toBeUndefined();
        },
      ),
      { numRuns },
    );
  });
});

describe("redactSecrets: URLs and credential-named parameters", () => {
  it("never prints a URL's query or fragment, nor the value of a credential-named parameter", () => {
    expect(redactSecrets("GET http://127.0.0.1:8080/v1/models?key=AIzaSyA-1234&alt=json failed")).toBe(
      "GET http://127.0.0.1:8080/v1/models?*** failed",
    );
    expect(redactSecrets("see https://h.example/cb#access_token=abc123&x=1.")).toBe("see https://h.example/cb#***");
    expect(
      redactSecrets('got "htp:/h?api_key=zz99zz99&token=t0k3n" and {"access_token": "eyJhbGciOi", "tokens": 12}'),
    ).toBe('got "htp:/h?***" and {"access_token": "***", "tokens": 12}');
    expect(redactSecrets("body api_key=zz99zz99&token=t0k3n&n=1; (password = 'hunter22')")).toBe(
      "body api_key=***&token=***&n=1; (password = ***)",
    );
    expect(redactSecrets("GET /v1/models?key=AIza-1234 HTTP/1.1")).toBe("GET /v1/models?*** HTTP/1.1");
    expect(redactSecrets("Authorization: Basic dXNlcjpwYXNz, X-Api-Key: abcdef123")).toBe(
      "Authorization: Basic ***, X-Api-Key: ***",
    );
    expect(redactSecrets("maxTokens: expected an integer; apiKey: expected a non-empty string; 12 tokens")).toBe(
      "maxTokens: expected an integer; apiKey: expected a non-empty string; 12 tokens",
    );
  });

  it("property: a credential-named parameter's value never survives, in a URL, a malformed URL, text or JSON", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...credentialNames),
        fc.string({ minLength: 6, maxLength: 40, unit: keyChars }),
        fc.constantFrom("url", "malformed", "text", "json", "form"),
        text,
        (name, value, where, filler) => {
          fc.pre(!filler.includes(value));
          const shown =
            where === "url"
              ? `http://127.0.0.1:9/v1?a=1&${name}=${value}&b=2`
              : where === "malformed"
                ? `htp//127.0.0.1:9/v1?${name}=${value}`
                : where === "text"
                  ? `${name}=${value}`
                  : where === "json"
                    ? JSON.stringify({ [name]: value })
                    : `a=1&${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
          const out = redactSecrets(`${filler} ${shown} ${filler}`);
          expect(out).not.toContain(value);
        },
      ),
      { numRuns },
    );
  });

  it("property: the query of any URL is dropped", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("http", "https", "ws", "postgres"),
        fc.string({ minLength: 6, maxLength: 40, unit: keyChars }),
        text,
        (scheme, query, filler) => {
          fc.pre(!filler.includes(query));
          const out = redactSecrets(`${filler} ${scheme}://db.example:5432/x/y?${query} ${filler}`);
          expect(out).not.toContain(query);
          expect(out).toContain(`${scheme}://db.example:5432/x/y?***`);
        },
      ),
      { numRuns },
    );
  });
});
