/**
 * Secret redaction for error messages and log lines: what every message of the HTTP provider and
 * of the CLI passes through before a person (or a log file) sees it.
 *
 * A {@link Redactor} is built once from the configured secrets. It removes every run of
 * {@link SECRET_RUN_LENGTH} or more characters of a secret, whether shown as is, split over lines,
 * spaced out, JSON-escaped (`\"`, `\uXXXX`, at any depth), percent-encoded, or as base64,
 * base64url or hex of the secret (at every byte alignment, so also inside the encoding of a longer
 * text such as `user:key`). It then removes what looks like a credential without being configured:
 * the query and fragment of every URL (and of an absolute path such as `/v1/models?key=…`), URL userinfo, the value of every parameter, JSON field or
 * header named like a credential (`key`, `api_key`, `token`, `access_token`, `client_secret`,
 * `password`, `X-Amz-Signature`, `Authorization`, …), bearer tokens and `sk-…` keys.
 *
 * Matching is linear in the text: the text is normalised once (white space, line breaks and
 * escapes removed, with a map back to the original positions) and every fixed-length window is
 * looked up by a rolling hash in the set of the secrets' runs.
 *
 * @module providers/redact
 */

/** What a redacted secret is replaced with. */
export const REDACTED = "***";

/**
 * Configured secrets shorter than this are not searched for: replacing every occurrence of a
 * 1–5 character string would mangle the message without protecting a real key.
 */
export const MIN_LITERAL_SECRET_LENGTH = 6;

/** Any run of this many characters of a configured secret (or of one of its encodings) is removed; a shorter secret is removed whole. */
export const SECRET_RUN_LENGTH = 8;

/** Removes secrets from a text (pure). */
export type Redactor = (text: string) => string;

/** `Bearer <token68>` (RFC 6750), case-insensitive. */
const BEARER = /\b(bearer)(\s+)[A-Za-z0-9._~+/=-]+/gi;
/**
 * OpenAI-style keys (`sk-proj-…`, `sk-ant-…` included): `sk-` and at least 8 key characters after
 * a non-alphanumeric (or the start), or at least 16 anywhere (real keys are far longer; the
 * shorter form inside a word, as in "task-manager", is left alone).
 */
const SK_KEY = /(^|[^A-Za-z0-9])sk-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9_-]{16,}/g;
/** The userinfo of a URL: `scheme://user:pass@` up to the last `@` before a `/`, `?`, `#` or white space. */
const URL_CREDENTIALS = /([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#]*@/g;
/** The query and fragment of a URL: from the first `?` or `#` after `scheme://` to white space, a quote or a bracket. */
const URL_QUERY = /([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s?#"'<>]*)([?#])[^\s"'<>]*/g;
/** The query and fragment of an absolute path (`GET /v1/models?key=…`, as servers echo a request line): at least one character after `?` or `#`. */
const PATH_QUERY = /((?:^|[\s"'(=:,])\/[^\s?#"'<>]*)([?#])[^\s"'<>]+/g;
/**
 * A name that says its value is a credential: ends in key, token, secret, password, passwd, pwd,
 * credential(s), signature, sig or auth, with any prefix of name characters (`api_key`, `apiKey`,
 * `x-goog-api-key`, `access_token`, `client_secret`, `X-Amz-Signature`). `tokens` or `maxTokens` is not one.
 */
const NAME = String.raw`[A-Za-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|credentials?|signature|sig|auth)`;
/** `name=value` (query strings, form bodies, prose, malformed URLs). */
const PARAM = new RegExp(
  String.raw`(?<![A-Za-z0-9_.-])(${NAME})(\s*=\s*)(?:"[^"\n]*"|'[^'\n]*'|[^\s&#"'<>,;()\[\]{}]+)`,
  "gi",
);
/** `"name": "value"` in JSON (or with single quotes). */
const JSON_FIELD = new RegExp(String.raw`(["'])(${NAME})\1(\s*:\s*)(["'])(?:\\[\s\S]|(?!\4)[^\\\n])*\4`, "gi");
/** `\"name\": \"value\"`: the same inside a JSON string (escaped once or more). */
const ESCAPED_JSON_FIELD = new RegExp(String.raw`(\\+["'])(${NAME})\1(\s*:\s*)\1(?:(?!\1)[^\n])*\1`, "gi");
/** Credential headers: `Authorization: Basic …`, `X-Api-Key: …`, `Cookie: …` (the scheme word is kept). */
const HEADER =
  /\b(authorization|proxy-authorization|x-api-key|api-key|x-auth-token|x-goog-api-key|x-amz-security-token|cookie|set-cookie)(\s*:\s*)(?:(basic|bearer|token|digest|negotiate|apikey)(\s+))?[^\s,;"'<>()[\]{}]+/gi;

const isSpace = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/** The value of the `count` hex digits of `codes` at `at` (before `limit`), or -1. */
function hexAt(codes: Uint16Array, limit: number, at: number, count: number): number {
  if (at + count > limit) return -1;
  let v = 0;
  for (let i = at; i < at + count; i++) {
    const d = hexDigit(codes[i]!);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** A text with white space and escapes removed (as UTF-16 code units), and for each of its characters the range of the original it came from. */
interface Normalised {
  readonly codes: Uint16Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** The one-letter escapes after a backslash and the characters they stand for (`\n` `\r` `\t` `\f` `\v` `\b`). */
const LETTER_ESCAPES: ReadonlyMap<number, number> = new Map([
  [110, 10],
  [114, 13],
  [116, 9],
  [102, 12],
  [118, 11],
  [98, 8],
]);

/**
 * `s` with white space dropped and nothing decoded (pure, linear), with for each character the
 * range of `s` it came from: a secret spaced out or split over lines, read as written. Escapes
 * are not decoded here: {@link normalise} reads `\v` as a white space it drops, which loses a
 * secret that holds a backslash and `v` (`aa\v\aaa` spaced out).
 */
function despaced(s: string): Normalised {
  const codes = new Uint16Array(s.length);
  const start = new Int32Array(s.length);
  let m = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) continue;
    codes[m] = c;
    start[m] = i;
    m++;
  }
  return { codes: codes.subarray(0, m), start: start.subarray(0, m), end: start.subarray(0, m).map((i) => i + 1) };
}

/**
 * Normalises `s` (pure, linear), in two steps. First white space is dropped (so an escape split by
 * a line break or spacing is still one). Then a run of backslashes and `uXXXX` or `xXX` is the
 * character; a run of backslashes and `n`, `r`, `t`, `f`, `v`, `b` is the control character it
 * stands for (white space ones dropped); a run of backslashes and any other character is that character; `%XX` below 0x80 is the character; a character
 * decoded to white space is dropped.
 */
function normalise(s: string): Normalised {
  const { codes: dense, start: at } = despaced(s);
  const m = dense.length;
  const codes = new Uint16Array(m);
  const start = new Int32Array(m);
  const end = new Int32Array(m);
  let k = 0;
  // The dense characters [from, to) decode to `c`.
  const push = (c: number, from: number, to: number): void => {
    if (isSpace(c)) return;
    codes[k] = c;
    start[k] = at[from]!;
    end[k] = at[to - 1]! + 1;
    k++;
  };
  let i = 0;
  while (i < m) {
    const c = dense[i]!;
    if (c === 92) {
      let j = i;
      while (j < m && dense[j] === 92) j++;
      if (j >= m) break;
      const d = dense[j]!;
      const u = d === 117 ? hexAt(dense, m, j + 1, 4) : d === 120 ? hexAt(dense, m, j + 1, 2) : -1;
      if (u >= 0) {
        const to = j + (d === 117 ? 5 : 3);
        push(u, i, to);
        i = to;
      } else {
        push(LETTER_ESCAPES.get(d) ?? d, i, j + 1);
        i = j + 1;
      }
    } else if (c === 37) {
      const v = hexAt(dense, m, i + 1, 2);
      const to = v >= 0 && v < 0x80 ? i + 3 : i + 1;
      push(to === i + 3 ? v : c, i, to);
      i = to;
    } else {
      push(c, i, i + 1);
      i++;
    }
  }
  return { codes: codes.subarray(0, k), start: start.subarray(0, k), end: end.subarray(0, k) };
}

/** The characters JSON writes after a backslash for the one-letter escapes, and what they stand for (`\"`, `\\`, `\/` stand for themselves). */
const JSON_ESCAPES: ReadonlyMap<number, number> = new Map(
  [...LETTER_ESCAPES]
    .filter(([letter]) => letter !== 118)
    .concat([
      [34, 34],
      [92, 92],
      [47, 47],
    ]),
);

/**
 * The code units `all` read once as the inside of a JSON string (pure, linear): `\\`, `\"`, `\/`, the letter
 * escapes and `\uXXXX` decoded, anything else kept as written, with for each character the range of
 * `all` it came from; `undefined` when there is no backslash. {@link normalise} reads every run of
 * backslashes as one, which loses a secret's own backslash when the character after it is
 * `\u`-escaped (`\\\u0074` is a backslash and `t`); this reading keeps it.
 */
function jsonDecoded(all: Uint16Array): Normalised | undefined {
  if (!all.includes(92)) return undefined;
  const codes = new Uint16Array(all.length);
  const start = new Int32Array(all.length);
  const end = new Int32Array(all.length);
  let k = 0;
  let i = 0;
  while (i < all.length) {
    const c = all[i]!;
    let to = i + 1;
    let v = c;
    if (c === 92 && i + 1 < all.length) {
      const d = all[i + 1]!;
      const u = d === 117 ? hexAt(all, all.length, i + 2, 4) : -1;
      if (u >= 0) {
        v = u;
        to = i + 6;
      } else if (JSON_ESCAPES.has(d)) {
        v = JSON_ESCAPES.get(d)!;
        to = i + 2;
      }
    }
    codes[k] = v;
    start[k] = i;
    end[k] = to;
    k++;
    i = to;
  }
  return { codes: codes.subarray(0, k), start: start.subarray(0, k), end: end.subarray(0, k) };
}

/** The string of `codes` (chunked: an argument list has a size limit). */
function stringOf(codes: Uint16Array): string {
  const parts: string[] = [];
  for (let p = 0; p < codes.length; p += 8192)
    parts.push(String.fromCharCode(...codes.subarray(p, Math.min(codes.length, p + 8192))));
  return parts.join("");
}

/** The UTF-16 code units of `s`. */
function codesOf(s: string): Uint16Array {
  const codes = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) codes[i] = s.charCodeAt(i);
  return codes;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Base64 of `bytes` (no padding characters: the caller keeps only whole characters). */
function base64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += BASE64[(n >> 18) & 63]! + BASE64[(n >> 12) & 63]! + BASE64[(n >> 6) & 63]! + BASE64[n & 63]!;
  }
  return out;
}

/**
 * The encodings of `secret` that may stand in a message: percent-encoded, hex (both cases), and
 * for each byte alignment 0–2 the base64 and base64url characters that depend on the secret's
 * bytes only (what any text containing the secret at that alignment encodes to).
 */
function encodings(secret: string): readonly string[] {
  const out: string[] = [];
  try {
    out.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be percent-encoded; the other forms are still searched for.
  }
  const bytes = new TextEncoder().encode(secret);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  out.push(hex, hex.toUpperCase());
  for (let align = 0; align < 3; align++) {
    const padded = new Uint8Array(align + bytes.length);
    padded.set(bytes, align);
    const core = base64(padded).slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + bytes.length)) / 6));
    out.push(core, core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/** Multiplier of the rolling hash of a window of code units (arithmetic modulo 2^32). */
const HASH_BASE = 0x01000193;

/** The hash of `length` code units of `codes` from `from`. */
function hashOf(codes: Uint16Array, from: number, length: number): number {
  let h = 0;
  for (let i = from; i < from + length; i++) h = (Math.imul(h, HASH_BASE) + codes[i]!) | 0;
  return h;
}

/** The runs of one length: the runs, and their hashes (a window whose hash is not among them is no run). */
interface RunsOfLength {
  readonly runs: ReadonlySet<string>;
  readonly hashes: ReadonlySet<number>;
}

/** Every run of a set of strings, grouped by run length. */
type Runs = ReadonlyMap<number, RunsOfLength>;

function runsOf(strings: readonly string[]): Runs {
  const byLength = new Map<number, { runs: Set<string>; hashes: Set<number> }>();
  for (const s of strings) {
    if (s.length < MIN_LITERAL_SECRET_LENGTH) continue;
    const length = Math.min(SECRET_RUN_LENGTH, s.length);
    let entry = byLength.get(length);
    if (entry === undefined) byLength.set(length, (entry = { runs: new Set(), hashes: new Set() }));
    const codes = codesOf(s);
    for (let i = 0; i + length <= s.length; i++) {
      entry.runs.add(s.slice(i, i + length));
      entry.hashes.add(hashOf(codes, i, length));
    }
  }
  return byLength;
}

type Span = readonly [number, number];

/**
 * The windows of `codes` that are runs (start, end), in no particular order: a rolling hash over
 * every window, the window's text compared only when its hash is a run's (linear in the text).
 */
function findRuns(codes: Uint16Array, runs: Runs): Span[] {
  const found: Span[] = [];
  for (const [length, { runs: set, hashes }] of runs) {
    if (codes.length < length) continue;
    let top = 1;
    for (let i = 1; i < length; i++) top = Math.imul(top, HASH_BASE);
    let h = hashOf(codes, 0, length);
    for (let p = 0; ; p++) {
      if (hashes.has(h) && set.has(String.fromCharCode(...codes.subarray(p, p + length)))) found.push([p, p + length]);
      if (p + length >= codes.length) break;
      h = (Math.imul((h - Math.imul(codes[p]!, top)) | 0, HASH_BASE) + codes[p + length]!) | 0;
    }
  }
  return found;
}

/** `text` with each of the spans replaced by {@link REDACTED} (overlapping or touching spans as one). */
function replaceSpans(text: string, spans: Span[]): string {
  spans.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  let i = 0;
  while (i < spans.length) {
    const open = spans[i]![0];
    let close = spans[i]![1];
    for (i++; i < spans.length && spans[i]![0] <= close; i++) close = Math.max(close, spans[i]![1]);
    parts.push(text.slice(at, open), REDACTED);
    at = close;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * Builds the remover of every run of the configured secrets in every form (pure): see the module
 * documentation. Secrets shorter than {@link MIN_LITERAL_SECRET_LENGTH} are ignored.
 */
export function createRunRemover(secrets: readonly (string | undefined)[]): Redactor {
  const configured = [
    ...new Set(secrets.filter((s): s is string => typeof s === "string" && s.length >= MIN_LITERAL_SECRET_LENGTH)),
  ];
  if (configured.length === 0) return (text) => text;
  const forms = configured.flatMap((s) => [s, ...encodings(s)]);
  const normalisedForms = forms.map((f) => stringOf(normalise(f).codes));
  // The raw text is scanned for every form too: normalising can join a shown key's last
  // characters with what follows (`…$%` then `61` reads as `%61`, an escaped `a`), so a copy shown
  // verbatim is found only in the raw text.
  const raw = runsOf(forms);
  const normal = runsOf(normalisedForms);
  return (text) => {
    let out = text;
    // Each pass replaces spans of at least MIN_LITERAL_SECRET_LENGTH characters by three: it ends.
    for (;;) {
      const codes = codesOf(out);
      const spans = raw.size === 0 ? [] : findRuns(codes, raw);
      const n = normalise(out);
      for (const [s, e] of findRuns(n.codes, normal)) spans.push([n.start[s]!, n.end[e - 1]!]);
      // Spaced out as written: a secret whose own escapes normalising would read.
      const d = despaced(out);
      if (raw.size > 0 && d.codes.length < codes.length)
        for (const [s, e] of findRuns(d.codes, raw)) spans.push([d.start[s]!, d.end[e - 1]!]);
      // The text read once as JSON, then normalised: a secret's backslash before a \u-escape.
      const j = jsonDecoded(codes);
      if (j !== undefined) {
        for (const [s, e] of findRuns(j.codes, raw)) spans.push([j.start[s]!, j.end[e - 1]!]);
        const jn = normalise(stringOf(j.codes));
        for (const [s, e] of findRuns(jn.codes, normal))
          spans.push([j.start[jn.start[s]!]!, j.end[jn.end[e - 1]! - 1]!]);
      }
      if (spans.length === 0) return out;
      out = replaceSpans(out, spans);
    }
  };
}

/** Removes what looks like a credential without being configured (pure): see the module documentation. */
function removePatterns(text: string): string {
  return text
    .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
    .replace(URL_QUERY, `$1$2${REDACTED}`)
    .replace(PATH_QUERY, `$1$2${REDACTED}`)
    .replace(ESCAPED_JSON_FIELD, `$1$2$1$3$1${REDACTED}$1`)
    .replace(JSON_FIELD, `$1$2$1$3$4${REDACTED}$4`)
    .replace(
      HEADER,
      (_m: string, name: string, sep: string, scheme: string | undefined, space: string | undefined) =>
        `${name}${sep}${scheme ?? ""}${space ?? ""}${REDACTED}`,
    )
    .replace(PARAM, `$1$2${REDACTED}`)
    .replace(BEARER, `$1$2${REDACTED}`)
    .replace(SK_KEY, (_match: string, before: string | undefined) => `${before ?? ""}sk-${REDACTED}`);
}

/**
 * Builds a redactor from the configured secrets, once (pure): the returned function removes every
 * run of {@link SECRET_RUN_LENGTH} characters of each secret in every form (split, spaced,
 * JSON-escaped, percent-encoded, base64, base64url, hex), then URL queries and userinfo,
 * credential-named parameters, fields and headers, bearer tokens and `sk-…` keys.
 *
 * @example
 * const redact = createRedactor([process.env.CC_PROVIDER_KEY]);
 * redact("401: key sk-live-0123456789abcdef\n0123 rejected at https://api.example/v1?key=abc");
 * // "401: key sk-*** rejected at https://api.example/v1?***"
 */
export function createRedactor(secrets: readonly (string | undefined)[] = []): (text: string) => string {
  const removeRuns = createRunRemover(secrets);
  return (text) => {
    const first = removeRuns(text);
    const patterned = removePatterns(first);
    // A pattern's replacement separates text; it can bring a secret's pieces together only when the secret contains `*`.
    return patterned === first ? first : removeRuns(patterned);
  };
}

/**
 * Removes secrets from `text` (pure): {@link createRedactor} of `secrets` applied once. Build the
 * redactor once with {@link createRedactor} when many texts go through it.
 *
 * @example
 * redactSecrets("401: bad key sk-abcdefgh1234 for https://me:pw@api.example/v1", ["pw-long-secret"]);
 * // "401: bad key sk-*** for https://***@api.example/v1"
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  return createRedactor(secrets)(text);
}

/** `name=value` pairs whose name says the value is a credential, in any text (a URL, a malformed one, a form body). */
const CREDENTIAL_PARAM = new RegExp(String.raw`(?<![A-Za-z0-9_.-])${NAME}\s*=\s*([^\s&#"'<>]+)`, "gi");

/**
 * The secrets a URL (or any text shaped like one) carries, to configure a redactor with (pure):
 * the values of credential-named parameters, as written and percent-decoded, and the password of
 * its userinfo.
 *
 * @example urlSecrets("http://127.0.0.1/v1?api_key=abc123456&x=1"); // ["abc123456"]
 */
export function urlSecrets(url: string): readonly string[] {
  const found = new Set<string>();
  const add = (v: string): void => {
    found.add(v);
    try {
      found.add(decodeURIComponent(v.replace(/\+/g, " ")));
    } catch {
      // Not valid percent-encoding: the value as written is searched for.
    }
  };
  for (const m of url.matchAll(CREDENTIAL_PARAM)) add(m[1]!);
  const userinfo = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^\s/?#]*)@/.exec(url);
  const password = userinfo?.[1]?.split(":").slice(1).join(":");
  if (password !== undefined && password !== "") add(password);
  return [...found];
}

/** Longest URL shown by {@link displayUrl}. */
const DISPLAY_URL_LENGTH = 200;

/**
 * A URL (or a malformed one) as it may be printed (pure): its query and fragment replaced by
 * `?***` (`#***`), its userinfo by `***@`, and cut to 200 characters.
 *
 * @example displayUrl("https://me:pw@api.example/v1?key=abc"); // "https://***@api.example/v1?***"
 */
export function displayUrl(url: string): string {
  const cut = url.search(/[?#]/);
  const base = cut < 0 ? url : `${url.slice(0, cut)}${url[cut]!}${REDACTED}`;
  const shown = base.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/*)?[^/@]*@/, `$1${REDACTED}@`);
  return shown.length > DISPLAY_URL_LENGTH ? `${shown.slice(0, DISPLAY_URL_LENGTH)}…` : shown;
}
