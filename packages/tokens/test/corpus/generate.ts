/**
 * Deterministic generated corpora for calibrating and testing the estimate: CJK prose, emoji-rich
 * chat, source code, and pathological inputs (long runs, base64, minified JS).
 */
import { rng, type Rng } from "./random.js";

const hanzi = Array.from(
  "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从知",
);
const kana = Array.from(
  "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテト",
);
const hangul = Array.from("가나다라마바사아자차카타파하는을를이가에서의고한다요습니다그리고하지만");
const cjkPunct = Array.from("，。、！？：；「」（）");

/** `chars` characters of Chinese, Japanese and Korean prose with CJK punctuation. */
export function cjkText(seed: number, chars: number): string {
  const r = rng(seed);
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const script = r.int(10);
    const pool = script < 6 ? hanzi : script < 8 ? kana : hangul;
    const len = 4 + r.int(20);
    for (let i = 0; i < len; i++) out.push(r.pick(pool));
    out.push(r.pick(cjkPunct));
    if (r.int(8) === 0) out.push("\n");
    n += len + 1;
  }
  return out.join("");
}

const emoji = [
  "😀",
  "😂",
  "🥲",
  "👍",
  "👍🏽",
  "🎉",
  "🔥",
  "🚀",
  "❤️",
  "✅",
  "🤖",
  "🙏",
  "🇫🇷",
  "🇯🇵",
  "👨‍👩‍👧‍👦",
  "🧑‍💻",
  "🏳️‍🌈",
  "⭐",
  "💡",
  "📦",
];
const words = [
  "ship",
  "it",
  "the",
  "build",
  "is",
  "green",
  "again",
  "nice",
  "work",
  "deploy",
  "done",
  "wow",
  "yes",
  "team",
  "merge",
  "now",
];

/** Chat-style text of about `chars` UTF-16 units where roughly half the tokens are emoji. */
export function emojiText(seed: number, chars: number): string {
  const r = rng(seed);
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const piece = r.int(2) === 0 ? r.pick(emoji) : r.pick(words);
    out.push(piece, r.int(4) === 0 ? "" : " ");
    if (r.int(12) === 0) out.push("\n");
    n += piece.length + 1;
  }
  return out.join("");
}

const idents = [
  "value",
  "result",
  "index",
  "count",
  "buffer",
  "options",
  "handler",
  "tokens",
  "segment",
  "message",
  "budget",
  "summary",
  "node",
  "key",
  "i",
  "j",
  "x",
];
const types = ["number", "string", "boolean", "readonly string[]", "Map<string, number>", "Promise<void>"];

function ident(r: Rng): string {
  const a = r.pick(idents);
  return r.int(3) === 0 ? a + r.pick(idents).replace(/^./, (c) => c.toUpperCase()) : a;
}

/** TypeScript-like source code of about `chars` characters: indentation, operators, literals. */
export function codeText(seed: number, chars: number): string {
  const r = rng(seed);
  const lines: string[] = [];
  let n = 0;
  let depth = 0;
  while (n < chars) {
    const pad = "  ".repeat(depth);
    let line: string;
    switch (r.int(7)) {
      case 0:
        line = `${pad}export function ${ident(r)}(${ident(r)}: ${r.pick(types)}, ${ident(r)}: ${r.pick(types)}): ${r.pick(types)} {`;
        depth = Math.min(depth + 1, 6);
        break;
      case 1:
        line = `${pad}const ${ident(r)} = ${ident(r)}.${ident(r)}(${r.int(1000)}, "${r.pick(words)}-${r.int(99)}");`;
        break;
      case 2:
        line = `${pad}if (${ident(r)} >= ${r.int(4096)} && !${ident(r)}) return ${ident(r)} ?? 0;`;
        break;
      case 3:
        line = `${pad}for (let ${ident(r)} = 0; ${ident(r)} < ${ident(r)}.length; ${ident(r)}++) ${ident(r)}[${ident(r)}] += 0x${r.int(65536).toString(16)};`;
        break;
      case 4:
        line = `${pad}// ${r.pick(words)} the ${ident(r)} when ${ident(r)} is ${r.pick(words)}`;
        break;
      case 5:
        line = depth > 0 ? `${"  ".repeat(depth - 1)}}` : `import { ${ident(r)} } from "./${ident(r)}.js";`;
        depth = Math.max(depth - 1, 0);
        break;
      default:
        line = `${pad}${ident(r)}.push({ id: ${r.int(1e6)}, ${ident(r)}: [${r.int(9)}, ${r.int(99)}, ${r.int(999)}] });`;
    }
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join("\n");
}

const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Pathological inputs of `size` UTF-16 units each, by name. */
export function pathological(seed: number, size: number): ReadonlyMap<string, string> {
  const r = rng(seed);
  const letters = Array.from({ length: size }, () => String.fromCharCode(97 + r.int(26))).join("");
  const base64 = Array.from({ length: size }, () => b64[r.int(64)]).join("");
  const minified: string[] = [];
  let n = 0;
  while (n < size) {
    const s = `function ${ident(r)}${r.int(99)}(a,b){var c=a[${r.int(9)}]||{};return c.${ident(r)}?b+c:${r.int(999)}}`;
    minified.push(s);
    n += s.length;
  }
  const noSpace = Array.from({ length: size }, () =>
    r.int(8) === 0 ? r.pick([".", "_", "-", "/"]) : String.fromCharCode(97 + r.int(26)),
  ).join("");
  return new Map([
    ["repeated 'a'", "a".repeat(size)],
    ["repeated '中'", "中".repeat(size)],
    ["random letters, no whitespace", letters],
    ["letters+punct, no whitespace", noSpace],
    ["base64", base64],
    ["minified JS", minified.join(";").slice(0, size)],
    ["spaces", " ".repeat(size)],
  ]);
}

const leetMap: Readonly<Record<string, string>> = {
  a: "4",
  e: "3",
  o: "0",
  i: "1",
  s: "5",
  t: "7",
  l: "1",
  g: "9",
  b: "8",
};
const leetWords = [
  "hacker",
  "elite",
  "speak",
  "noob",
  "owned",
  "leet",
  "password",
  "admin",
  "root",
  "secret",
  "gamer",
  "pro",
  "skills",
  "totally",
  "epic",
  "fail",
  "the",
  "best",
];

/** Encoded-data classes the estimate must not under-count, by name. */
export const encodedKinds = ["base64", "hex dump", "hex digests", "binary digits", "leetspeak"] as const;

/** One of the encoded-data classes, about `chars` UTF-16 units, as lines like real tool output. */
export function encodedText(kind: (typeof encodedKinds)[number], seed: number, chars: number): string {
  const r = rng(seed);
  const hexDigits = "0123456789abcdef";
  const out: string[] = [];
  let n = 0;
  let offset = 0;
  while (n < chars) {
    let line: string;
    switch (kind) {
      case "base64":
        line = Array.from({ length: 20 + r.int(57) }, () => b64[r.int(64)]).join("") + (r.int(4) === 0 ? "==" : "");
        break;
      case "hex dump": {
        const bytes = Array.from({ length: 16 }, () => r.int(256));
        const hex = bytes.map((b) => b.toString(16).padStart(2, "0"));
        const ascii = bytes.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
        line = `${offset.toString(16).padStart(8, "0")}: ${hex.slice(0, 8).join(" ")}  ${hex.slice(8).join(" ")}  |${ascii}|`;
        offset += 16;
        break;
      }
      case "hex digests":
        line = `${Array.from({ length: 64 }, () => hexDigits[r.int(16)]).join("")}  ${r.pick(["src/index.ts", "README.md", "package.json", "dist/app.js"])}`;
        break;
      case "binary digits":
        line = Array.from({ length: 1 + r.int(8) }, () =>
          Array.from({ length: 8 }, () => String(r.int(2))).join(""),
        ).join(" ");
        break;
      default:
        line = Array.from({ length: 3 + r.int(8) }, () =>
          Array.from(r.pick(leetWords), (c) =>
            r.int(3) > 0 && leetMap[c] !== undefined ? leetMap[c] : r.int(5) === 0 ? c.toUpperCase() : c,
          ).join(""),
        ).join(" ");
    }
    out.push(line);
    n += line.length + 1;
  }
  return out.join("\n");
}
