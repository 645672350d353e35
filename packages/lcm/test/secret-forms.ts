// Ways a server or a message may show a secret, and a check that reads text the way a person (or
// a script) could: raw, without its white space, JSON-unescaped, percent-decoded, and every
// base64 or hex run decoded at each alignment.

/** The ways a secret is shown. */
export const SECRET_FORMS = [
  "raw",
  "split",
  "split-crlf",
  "json-u",
  "json-u-some",
  "json-in-json",
  "base64",
  "base64-in-text",
  "base64url",
  "hex",
  "spaced",
  "url",
  "suffix",
  "prefix",
  "run",
] as const;
/** One way a secret is shown. */
export type SecretForm = (typeof SECRET_FORMS)[number];

const percentAll = (s: string): string =>
  [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
const uEscape = (c: string): string =>
  [...c].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/** `key` shown as `form`; `cut` in [0, 1) picks where it is split or which part is shown. */
export function showSecret(key: string, form: SecretForm, cut: number): string {
  const n = key.length;
  const at = 1 + Math.floor(cut * (n - 1));
  const run = Math.min(n, 8 + Math.floor(cut * Math.max(0, n - 8)));
  switch (form) {
    case "raw":
      return key;
    case "split":
      return `${key.slice(0, at)}\n${key.slice(at)}`;
    case "split-crlf":
      return `${key.slice(0, at)}\r\n  ${key.slice(at)}`;
    case "json-u":
      return JSON.stringify({ error: [...key].map(uEscape).join("") });
    // As a JSON encoder prints it: every other character \u-escaped, the rest JSON-escaped (a raw
    // backslash never stands before an escape).
    case "json-u-some":
      return [...key].map((c, i) => (i % 2 === 0 ? uEscape(c) : JSON.stringify(c).slice(1, -1))).join("");
    case "json-in-json":
      return JSON.stringify(JSON.stringify({ message: `bad key "${key}"` }));
    case "base64":
      return Buffer.from(key, "utf8").toString("base64");
    case "base64-in-text":
      return Buffer.from(`${"u".repeat(Math.floor(cut * 3))}user:${key} end`, "utf8").toString("base64");
    case "base64url":
      return Buffer.from(key, "utf8").toString("base64url");
    case "hex": {
      const hex = Buffer.from(key, "utf8").toString("hex");
      return cut < 0.5 ? hex : hex.toUpperCase();
    }
    case "spaced":
      return [...key].join(" ");
    case "url":
      return percentAll(key);
    case "suffix":
      return key.slice(n - run);
    case "prefix":
      return key.slice(0, run);
    case "run":
      return key.slice(Math.floor((n - run) / 2), Math.floor((n - run) / 2) + run);
  }
}

/** The readings of `text` a person or a script could make. */
function readings(text: string): readonly string[] {
  const out = new Set<string>([text]);
  const noSpace = text.replace(/\s+|\\[nrt]/g, "");
  out.add(noSpace);
  const unescaped = (s: string): string =>
    s
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\+(["\\/])/g, "$1")
      .replace(/\\+/g, "");
  out.add(unescaped(noSpace));
  out.add(unescaped(unescaped(noSpace)).replace(/\s+/g, ""));
  out.add(noSpace.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))));
  try {
    out.add(decodeURIComponent(noSpace));
  } catch {
    // not percent-encoded UTF-8 as a whole
  }
  for (const run of noSpace.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let skip = 0; skip < 4; skip++) out.add(Buffer.from(run.slice(skip), "base64").toString("utf8"));
  }
  for (const run of noSpace.match(/[0-9a-fA-F]{8,}/g) ?? []) {
    for (let skip = 0; skip < 2; skip++)
      out.add(Buffer.from(run.slice(skip).replace(/^((?:..)*).?$/, "$1"), "hex").toString("utf8"));
  }
  return [...out];
}

/** The first run of `key` (8 characters, or the whole key when shorter) that a reading of `text` shows, if any. */
export function exposedRun(text: string, key: string): string | undefined {
  const length = Math.min(8, key.length);
  const runs = new Set<string>();
  for (let i = 0; i + length <= key.length; i++) runs.add(key.slice(i, i + length));
  for (const reading of readings(text)) for (const r of runs) if (reading.includes(r)) return r;
  return undefined;
}
