/**
 * A dependency-free SVG chart of the retention table: per policy, one horizontal bar per metric
 * with its 95% interval as a whisker.
 */
import { escapeXml, PALETTE } from "../report/svg.js";
import type { Estimate } from "./stats.js";

/** One policy's bars. */
export interface BarRow {
  readonly policy: string;
  readonly values: readonly Estimate[];
}

/**
 * Renders bars on a 0–100% axis; NaN values are left out.
 *
 * @example renderBars("retention", ["re-access kept", "grounding"], [{ policy: "lru", values: [e1, e2] }])
 */
export function renderBars(title: string, metrics: readonly string[], rows: readonly BarRow[]): string {
  const left = 190;
  const width = 560;
  const bar = 11;
  const group = metrics.length * bar + 10;
  const top = 50;
  const height = top + rows.length * group + 60;
  const x = (v: number): number => left + Math.max(0, Math.min(1, v)) * width;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${left + width + 40}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${left}" y="24" font-size="15">${escapeXml(title)}</text>`,
  ];
  for (let t = 0; t <= 100; t += 20) {
    parts.push(`<line x1="${x(t / 100)}" y1="${top - 6}" x2="${x(t / 100)}" y2="${height - 50}" stroke="#ddd"/>`);
    parts.push(`<text x="${x(t / 100)}" y="${height - 34}" text-anchor="middle">${t}%</text>`);
  }
  rows.forEach((r, i) => {
    const y0 = top + i * group;
    parts.push(
      `<text x="${left - 8}" y="${y0 + (metrics.length * bar) / 2 + 4}" text-anchor="end">${escapeXml(r.policy)}</text>`,
    );
    r.values.forEach((e, m) => {
      if (!Number.isFinite(e.value)) return;
      const y = y0 + m * bar;
      const colour = PALETTE[m % PALETTE.length]!;
      parts.push(
        `<rect x="${left}" y="${y}" width="${x(e.value) - left}" height="${bar - 2}" fill="${colour}" opacity="0.8"/>`,
      );
      if (Number.isFinite(e.lo) && Number.isFinite(e.hi)) {
        const ym = y + (bar - 2) / 2;
        parts.push(`<line x1="${x(e.lo)}" y1="${ym}" x2="${x(e.hi)}" y2="${ym}" stroke="black"/>`);
      }
    });
  });
  metrics.forEach((name, m) => {
    const lx = left + m * 170;
    parts.push(`<rect x="${lx}" y="${height - 22}" width="12" height="10" fill="${PALETTE[m % PALETTE.length]!}"/>`);
    parts.push(`<text x="${lx + 16}" y="${height - 13}">${escapeXml(name)}</text>`);
  });
  parts.push("</svg>");
  return parts.join("\n");
}
