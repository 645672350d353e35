/**
 * A dependency-free grouped bar chart (SVG) of the cost benchmark: one group per price sheet,
 * one bar per policy, bar height = pooled input cost, retention printed above each bar.
 */
import { escapeXml, PALETTE } from "../report/svg.js";

/** One bar. */
export interface Bar {
  readonly policy: string;
  readonly value: number;
  /** A short text above the bar. */
  readonly note: string;
}

/** One group of bars (one price sheet). */
export interface BarGroup {
  readonly label: string;
  readonly bars: readonly Bar[];
}

/**
 * Renders the chart as a standalone SVG document (values ≤ 0 or not finite draw no bar).
 *
 * @example renderBarChart("input cost", "USD", [{ label: "with caching", bars: [{ policy: "cost", value: 1.2, note: "71%" }] }])
 */
export function renderBarChart(title: string, yLabel: string, groups: readonly BarGroup[]): string {
  const W = 900;
  const H = 520;
  const P = { left: 80, top: 60, right: 700, bottom: 440 };
  const values = groups.flatMap((g) => g.bars.map((b) => b.value)).filter((v) => Number.isFinite(v) && v > 0);
  const max = values.length === 0 ? 1 : Math.max(...values) * 1.1;
  const policies = [...new Set(groups.flatMap((g) => g.bars.map((b) => b.policy)))];
  const colour = (p: string): string => PALETTE[policies.indexOf(p) % PALETTE.length]!;
  const y = (v: number): number => P.bottom - (v / max) * (P.bottom - P.top);
  const groupW = (P.right - P.left) / Math.max(1, groups.length);
  const barW = (groupW * 0.8) / Math.max(1, policies.length);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="13">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="28" text-anchor="middle" font-size="16">${escapeXml(title)}</text>`,
    `<line x1="${P.left}" y1="${P.bottom}" x2="${P.right}" y2="${P.bottom}" stroke="black"/>`,
    `<line x1="${P.left}" y1="${P.top}" x2="${P.left}" y2="${P.bottom}" stroke="black"/>`,
    `<text transform="translate(24 ${(P.top + P.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(yLabel)}</text>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const v = (max * i) / 4;
    out.push(
      `<line x1="${P.left - 4}" y1="${y(v).toFixed(1)}" x2="${P.right}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`,
    );
    out.push(`<text x="${P.left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toPrecision(3)}</text>`);
  }
  groups.forEach((g, gi) => {
    const x0 = P.left + gi * groupW + groupW * 0.1;
    out.push(
      `<text x="${(x0 + groupW * 0.4).toFixed(1)}" y="${P.bottom + 24}" text-anchor="middle">${escapeXml(g.label)}</text>`,
    );
    for (const b of g.bars) {
      const x = x0 + policies.indexOf(b.policy) * barW;
      if (!Number.isFinite(b.value) || b.value <= 0) continue;
      out.push(
        `<rect x="${x.toFixed(1)}" y="${y(b.value).toFixed(1)}" width="${(barW * 0.9).toFixed(1)}" height="${(P.bottom - y(b.value)).toFixed(1)}" fill="${colour(b.policy)}"><title>${escapeXml(`${b.policy}: ${b.value}`)}</title></rect>`,
      );
      out.push(
        `<text x="${(x + barW * 0.45).toFixed(1)}" y="${(y(b.value) - 6).toFixed(1)}" text-anchor="middle" font-size="11">${escapeXml(b.note)}</text>`,
      );
    }
  });
  policies.forEach((p, i) => {
    const ly = P.top + i * 22;
    out.push(`<rect x="${P.right + 20}" y="${ly}" width="14" height="14" fill="${colour(p)}"/>`);
    out.push(`<text x="${P.right + 40}" y="${ly + 12}">${escapeXml(p)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
