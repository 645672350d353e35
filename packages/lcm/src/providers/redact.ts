/**
 * Secret redaction for error messages and log lines: the one function every message of the HTTP
 * provider and of the CLI passes through before a person (or a log file) sees it.
 *
 * @module providers/redact
 */

/** What a redacted secret is replaced with. */
export const REDACTED = "***";

/**
 * Configured secrets shorter than this are not searched for literally: replacing every
 * occurrence of a 1–5 character string would mangle the message without protecting a real key.
 */
export const MIN_LITERAL_SECRET_LENGTH = 6;

/** `Bearer <token68>` (RFC 6750), case-insensitive. */
const BEARER = /\b(bearer)(\s+)[A-Za-z0-9._~+/=-]+/gi;
/**
 * OpenAI-style keys (`sk-proj-…`, `sk-ant-…` included): `sk-` and at least 8 key characters after
 * a non-alphanumeric (or the start), or at least 16 anywhere (real keys are far longer; the
 * shorter form inside a word, as in "task-manager", is left alone).
 */
const SK_KEY = /(^|[^A-Za-z0-9])sk-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9_-]{16,}/g;
/** The userinfo of a URL: `scheme://user:pass@` up to the last `@` before a `/` or white space. */
const URL_CREDENTIALS = /([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/]*@/g;

function removeAll(text: string, secret: string): string {
  let out = text;
  // Each pass shortens the text (the replacement is shorter than the secret), so this ends; it
  // also removes occurrences that a previous replacement brought together.
  while (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * The forms a configured secret may take inside a message: as is, URL-encoded (in a URL) and
 * JSON-escaped (echoed inside a JSON body).
 */
function variants(secret: string): readonly string[] {
  const forms = new Set<string>([secret]);
  try {
    forms.add(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be URL-encoded; the literal form is still removed.
  }
  forms.add(JSON.stringify(secret).slice(1, -1));
  return [...forms].filter((f) => f.length >= MIN_LITERAL_SECRET_LENGTH);
}

/**
 * Removes secrets from `text` (pure): every configured secret (at least
 * {@link MIN_LITERAL_SECRET_LENGTH} characters; also URL-encoded and JSON-escaped), bearer
 * tokens, `sk-…`-shaped keys and URL credentials (`https://user:pass@host` → `https://***@host`).
 *
 * @example
 * redactSecrets("401: bad key sk-abcdefgh1234 for https://me:pw@api.example/v1", ["pw-long-secret"]);
 * // "401: bad key sk-*** for https://***@api.example/v1"
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  const forms = secrets.flatMap((s) => (s === undefined ? [] : variants(s)));
  const literal = (s: string): string => forms.reduce(removeAll, s);
  // Literal secrets go first (a key inside a URL or a bearer header is removed whole) and again
  // last, in case a pattern replacement brought the pieces of one together.
  return literal(
    literal(text)
      .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
      .replace(BEARER, `$1$2${REDACTED}`)
      .replace(SK_KEY, (_match: string, before: string | undefined) => `${before ?? ""}sk-${REDACTED}`),
  );
}
