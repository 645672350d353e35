/**
 * Throughput-against-n series found in a results file, ready for {@link renderLogLogChart}.
 *
 * Two shapes are understood:
 * - explicit: `data.series = [{ label, group, reference, points: [{ n, perSecond }] }]`
 *   (what bench/scaling.bench.ts writes);
 * - rows: any array of objects with a numeric `n` and timing fields (`{ medianMs }`); each timing
 *   field becomes a line of `n / median seconds`, split by the row's string fields (variant,
 *   backend…). A field whose name says reference, baseline, raw or original is a reference line.
 *   Timings may also sit one level down in a group (`wall: { compact: { medianMs } }`); the
 *   chart shows wall time, so a group named `cpu` is left out.
 */
import type { ChartSeries } from "./svg.js";
import { isRecord, isTiming } from "./tables.js";

/** Field names that denote a reference implementation measured beside ours. */
export const REFERENCE_FIELD = /reference|baseline|raw|original|naive/i;

const positive = (u: unknown): u is number => typeof u === "number" && Number.isFinite(u) && u > 0;

function explicitSeries(data: unknown): ChartSeries[] | undefined {
  if (!isRecord(data) || !Array.isArray(data["series"])) return undefined;
  const out: ChartSeries[] = [];
  for (const s of data["series"] as readonly unknown[]) {
    if (!isRecord(s) || typeof s["label"] !== "string" || !Array.isArray(s["points"])) continue;
    const points = (s["points"] as readonly unknown[])
      .filter(isRecord)
      .filter((p) => positive(p["n"]) && positive(p["perSecond"]))
      .map((p) => ({ x: p["n"] as number, y: p["perSecond"] as number }));
    out.push({
      label: s["label"],
      group: typeof s["group"] === "string" ? s["group"] : s["label"],
      reference: s["reference"] === true,
      points,
    });
  }
  return out;
}

function rowArrays(data: unknown, depth = 0): (readonly Readonly<Record<string, unknown>>[])[] {
  if (Array.isArray(data)) return data.every(isRecord) ? [data] : [];
  if (!isRecord(data) || depth > 3) return [];
  return Object.values(data).flatMap((v) => rowArrays(v, depth + 1));
}

/** The timing fields of a row: top-level ones, and those one level down in a non-`cpu` group. */
function timingsOf(row: Readonly<Record<string, unknown>>): [string, { readonly medianMs: number }][] {
  return Object.entries(row).flatMap(([k, v]): [string, { readonly medianMs: number }][] => {
    if (isTiming(v)) return [[k, v]];
    if (!isRecord(v) || k === "cpu") return [];
    return Object.entries(v).flatMap(([inner, t]): [string, { readonly medianMs: number }][] =>
      isTiming(t) ? [[inner, t]] : [],
    );
  });
}

/**
 * The throughput series of one results file's `data` (series with fewer than two points are
 * dropped: they cannot show a trend).
 *
 * @example
 * seriesOf([{ n: 10, variant: "a", compact: { medianMs: 1 } }, { n: 100, variant: "a", compact: { medianMs: 5 } }])
 * // [{ label: "a compact", group: "a compact", reference: false, points: [{ x: 10, y: 10000 }, { x: 100, y: 20000 }] }]
 */
export function seriesOf(data: unknown): ChartSeries[] {
  const explicit = explicitSeries(data);
  if (explicit !== undefined) return explicit.filter((s) => s.points.length >= 2);
  const byKey = new Map<
    string,
    { label: string; group: string; reference: boolean; points: { x: number; y: number }[] }
  >();
  for (const rows of rowArrays(data)) {
    for (const row of rows) {
      const n = row["n"];
      if (!positive(n)) continue;
      const disc = Object.entries(row)
        .filter(([, v]) => typeof v === "string")
        .map(([, v]) => v as string)
        .join(" ");
      for (const [k, v] of timingsOf(row)) {
        if (!positive(v.medianMs)) continue;
        const reference = REFERENCE_FIELD.test(k);
        const label = disc === "" ? k : `${disc} ${k}`;
        const group = label;
        const entry = byKey.get(label) ?? { label, group, reference, points: [] };
        entry.points.push({ x: n, y: n / (v.medianMs / 1000) });
        byKey.set(label, entry);
      }
    }
  }
  return [...byKey.values()].filter((s) => s.points.length >= 2);
}
