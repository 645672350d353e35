/**
 * A dependency-free SVG line chart on log–log axes: one line per series, reference series
 * dashed, circles on measured points, labelled axes with decade ticks and a legend.
 */
import { formatTick, logRange, logTicks, type LogRange } from "./axis.js";
import type { Point } from "./fit.js";

/** One line of the chart. */
export interface ChartSeries {
  readonly label: string;
  readonly points: readonly Point[];
  /** Drawn dashed: a reference implementation measured beside ours. */
  readonly reference: boolean;
  /** Series with the same group share a colour (ours solid, its reference dashed). */
  readonly group: string;
}

/** What to draw. */
export interface Chart {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly ChartSeries[];
}

/** Okabe–Ito colour-blind-safe palette (its pale yellow swapped for brown), cycled by group. */
export const PALETTE: readonly string[] = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#E69F00",
  "#56B4E9",
  "#000000",
  "#8C564B",
];

const WIDTH = 960;
const HEIGHT = 600;
const PLOT = { left: 90, top: 50, right: 640, bottom: 520 } as const;

/** Escapes text for an SVG text node or attribute. */
export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
}

const usable = (p: Point): boolean => Number.isFinite(p.x) && p.x > 0 && Number.isFinite(p.y) && p.y > 0;

function scale(range: LogRange, lo: number, hi: number): (v: number) => number {
  return (v) => lo + ((Math.log10(v) - range.minExp) / (range.maxExp - range.minExp)) * (hi - lo);
}

const fmt = (v: number): string => v.toFixed(1);

/**
 * Renders `chart` as a standalone SVG document. Points that cannot sit on a log axis (≤ 0, NaN,
 * infinite) are left out of the line; a chart without any usable point says so in its body.
 *
 * @example
 * renderLogLogChart({ title: "compact", xLabel: "n", yLabel: "segments/s", series: [
 *   { label: "ours", group: "compact", reference: false, points: [{ x: 1e3, y: 1e6 }, { x: 1e4, y: 9e5 }] },
 * ] });
 */
export function renderLogLogChart(chart: Chart): string {
  const series = chart.series.map((s) => ({ ...s, points: s.points.filter(usable).sort((a, b) => a.x - b.x) }));
  const all = series.flatMap((s) => s.points);
  const xr = logRange(all.map((p) => p.x));
  const yr = logRange(all.map((p) => p.y));
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="Helvetica, Arial, sans-serif">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="28" text-anchor="middle" font-size="18" font-weight="bold">${escapeXml(chart.title)}</text>`,
  );
  if (xr === undefined || yr === undefined) {
    out.push(`<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" font-size="16">no data</text>`, "</svg>");
    return `${out.join("\n")}\n`;
  }
  const sx = scale(xr, PLOT.left, PLOT.right);
  const sy = scale(yr, PLOT.bottom, PLOT.top);
  out.push(
    `<rect x="${PLOT.left}" y="${PLOT.top}" width="${PLOT.right - PLOT.left}" height="${PLOT.bottom - PLOT.top}" fill="none" stroke="#333"/>`,
  );
  for (const t of logTicks(xr)) {
    const x = fmt(sx(t));
    const major = Number.isInteger(Math.log10(t));
    out.push(`<line x1="${x}" y1="${PLOT.top}" x2="${x}" y2="${PLOT.bottom}" stroke="${major ? "#ccc" : "#eee"}"/>`);
    out.push(
      `<text x="${x}" y="${PLOT.bottom + 20}" text-anchor="middle" font-size="13">${escapeXml(formatTick(t))}</text>`,
    );
  }
  for (const t of logTicks(yr)) {
    const y = fmt(sy(t));
    const major = Number.isInteger(Math.log10(t));
    out.push(`<line x1="${PLOT.left}" y1="${y}" x2="${PLOT.right}" y2="${y}" stroke="${major ? "#ccc" : "#eee"}"/>`);
    out.push(
      `<text x="${PLOT.left - 8}" y="${y}" dy="4" text-anchor="end" font-size="13">${escapeXml(formatTick(t))}</text>`,
    );
  }
  out.push(
    `<text x="${(PLOT.left + PLOT.right) / 2}" y="${PLOT.bottom + 48}" text-anchor="middle" font-size="15">${escapeXml(chart.xLabel)}</text>`,
    `<text transform="translate(24 ${(PLOT.top + PLOT.bottom) / 2}) rotate(-90)" text-anchor="middle" font-size="15">${escapeXml(chart.yLabel)}</text>`,
  );
  const groups = [...new Set(series.map((s) => s.group))];
  const colour = (g: string): string => PALETTE[groups.indexOf(g) % PALETTE.length]!;
  series.forEach((s) => {
    const c = colour(s.group);
    const dash = s.reference ? ` stroke-dasharray="7 5"` : "";
    if (s.points.length > 1) {
      const d = s.points.map((p, i) => `${i === 0 ? "M" : "L"}${fmt(sx(p.x))} ${fmt(sy(p.y))}`).join(" ");
      out.push(`<path d="${d}" fill="none" stroke="${c}" stroke-width="2.5"${dash}/>`);
    }
    for (const p of s.points) {
      const fill = s.reference ? "#ffffff" : c;
      out.push(
        `<circle cx="${fmt(sx(p.x))}" cy="${fmt(sy(p.y))}" r="4" fill="${fill}" stroke="${c}" stroke-width="2"/>`,
      );
    }
  });
  const lx = PLOT.right + 24;
  out.push(`<text x="${lx}" y="${PLOT.top + 4}" font-size="14" font-weight="bold">Legend (dashed = reference)</text>`);
  series.forEach((s, i) => {
    const y = PLOT.top + 28 + i * 22;
    const c = colour(s.group);
    const dash = s.reference ? ` stroke-dasharray="7 5"` : "";
    out.push(`<line x1="${lx}" y1="${y}" x2="${lx + 34}" y2="${y}" stroke="${c}" stroke-width="2.5"${dash}/>`);
    out.push(
      `<circle cx="${lx + 17}" cy="${y}" r="4" fill="${s.reference ? "#ffffff" : c}" stroke="${c}" stroke-width="2"/>`,
    );
    out.push(`<text x="${lx + 44}" y="${y}" dy="4" font-size="13">${escapeXml(s.label)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
