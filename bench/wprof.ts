import { entry } from "@cc/hierarchical";
import { indexedTerms, PostingsCache } from "@cc/hierarchical/internal";
const r = (() => { let a = 42; return () => { a |= 0; a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return (t ^ (t >>> 14)) >>> 0; }; })();
const syl = ["ka","lo","mi","ne","ru","sa","to","vi","za","po","qu","xe","di","fa","gu","he"];
const vocab = Array.from({ length: 5000 }, () => Array.from({ length: 2 + (r() % 3) }, () => syl[r() % syl.length]).join(""));
const words = (n: number) => Array.from({ length: n }, () => vocab[Math.floor((r() % vocab.length) * ((r() % 1000) / 1000) ** 2)]).join(" ");
const n = 20000;
const entries = Array.from({ length: n }, (_, i) => entry({ id: `s${i}`, namespace: i % 10 === 0 ? "other" : "main", kind: "k", summary: words(12), content: `src/mod${i % 97}/file${i}.py ${words(50)}` }));
let t = performance.now(); const terms = entries.map((e) => ({ summary: indexedTerms(e.summary), content: indexedTerms(e.content) })); console.log("terms", (performance.now() - t).toFixed(0));
for (let rep = 0; rep < 3; rep++) {
const c0 = process.cpuUsage(); t = performance.now(); const c = new PostingsCache<number>(); terms.forEach((x, i) => c.put(`k${i}`, i, x, "main", "k")); console.log("put", (performance.now() - t).toFixed(0), "cpu", (process.cpuUsage(c0).user/1000).toFixed(0));
}
