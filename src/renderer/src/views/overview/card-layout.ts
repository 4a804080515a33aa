/**
 * Packs project cards into columns (a simple masonry) so a short card does not leave a tall gap
 * beside a project with nine roles. Heights are estimated from the data, not measured, so the
 * layout is stable and does not jump while rendering.
 */
import type { ProjectStatus } from '../../../../shared/api'

/** Narrowest a card may get before the grid drops a column. */
export const MIN_CARD_WIDTH = 600
/** Gap between cards; matches --space-4. */
export const CARD_GAP = 16

/** How many columns fit in `width`. */
export function columnCount(width: number): number {
  if (width <= 0) return 1
  return Math.max(1, Math.floor((width + CARD_GAP) / (MIN_CARD_WIDTH + CARD_GAP)))
}

/** Rough pixel height of a card (header, table rows, findings, footer). */
export function estimateCardHeight(p: ProjectStatus): number {
  const header = 62
  const footer = 34
  if (!p.exists) return header + 90 + footer
  const table = p.roles.length ? 28 + p.roles.reduce((h, r) => h + (r.l0 && r.l0.flags.length ? 42 : 29), 0) : 50
  const findings = p.findings.length ? 20 + Math.min(p.findings.length, 3) * 18 + (p.findings.length > 3 ? 20 : 0) : 0
  return header + table + findings + footer
}

/** Distributes projects into `n` columns, each card going to the currently shortest column. */
export function packColumns<T extends ProjectStatus>(projects: readonly T[], n: number): T[][] {
  const cols: T[][] = Array.from({ length: n }, () => [])
  const heights = new Array<number>(n).fill(0)
  for (const p of projects) {
    let best = 0
    for (let i = 1; i < n; i++) if ((heights[i] ?? 0) < (heights[best] ?? 0) - 1) best = i
    cols[best]?.push(p)
    heights[best] = (heights[best] ?? 0) + estimateCardHeight(p) + CARD_GAP
  }
  return cols
}
