/**
 * How Muster says how long ago something happened, once for the screens and the CLI (`age` in
 * src/cli/output.ts): "just now", "2 min ago", "3 h ago", "5 d ago", then the date.
 */

/** "just now", "2 min ago", "3 h ago", "5 d ago", then a date (`unknown` for a bad time). */
export function relativeTime(iso: string, now: number): string {
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return 'unknown'
  const s = Math.round((now - t) / 1000)
  if (s < -60) return 'in the future'
  if (s < 45) return 'just now'
  const m = Math.round(s / 60)
  if (m < 60) return `${m} min ago`
  const h = Math.round(m / 60)
  if (h < 24) return `${h} h ago`
  const d = Math.round(h / 24)
  if (d < 30) return `${d} d ago`
  return new Date(t).toISOString().slice(0, 10)
}

/** The same, compact for table cells: "now", "3 min", "5 h", "6 d", then a date. */
export function shortAge(iso: string, now: number): string {
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return '?'
  const m = Math.round((now - t) / 60000)
  if (m < 1) return 'now'
  if (m < 60) return `${m} min`
  const h = Math.round(m / 60)
  if (h < 24) return `${h} h`
  const d = Math.round(h / 24)
  if (d < 30) return `${d} d`
  return new Date(t).toISOString().slice(0, 10)
}
