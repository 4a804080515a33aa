/**
 * How usage reads, the same in the CLI and on screen: token counts short (`1.2M`, `48.3k`), dollars
 * with the precision a small estimate needs (`$0.0008`, `$12.40`), and the window words `muster
 * usage --since` takes (`today`, `7d`, `24h`, a date). Plain TypeScript.
 */

/** A token count short: 950, 48.3k, 1.2M, 3.4B. */
export function shortTokens(n: number): string {
  const a = Math.abs(n)
  if (a < 1000) return String(Math.round(n))
  const [d, u] = a < 1e6 ? [1e3, 'k'] : a < 1e9 ? [1e6, 'M'] : [1e9, 'B']
  const v = n / d
  return `${Math.abs(v) < 10 ? v.toFixed(1).replace(/\.0$/, '') : Math.round(v)}${u}`
}

/** A token count in full with thousands separators: 1,234,567. */
export function fullTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US')
}

/** Dollars as an estimate reads: `$0` for none, 2 significant digits below a cent, else cents. */
export function usd(v: number | null): string {
  if (v === null) return '—'
  if (v === 0) return '$0'
  if (v < 0.01) return `$${v.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}`
  return `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
}

/** Local midnight of the day holding `now`. */
export function startOfDay(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate())
}

/**
 * The instant a window word names, or null when it is not one: `today` (local midnight),
 * `yesterday`, `<n>d` (local midnight n-1 days before today: `7d` is the last 7 days, today
 * included), `<n>h`, a date `YYYY-MM-DD` (local midnight) or an ISO date and time.
 */
export function windowStart(word: string, now = new Date()): Date | null {
  const w = word.trim().toLowerCase()
  const day = startOfDay(now)
  if (w === 'today') return day
  if (w === 'yesterday') return new Date(day.getFullYear(), day.getMonth(), day.getDate() - 1)
  let m = /^(\d{1,4})d$/.exec(w)
  if (m) return new Date(day.getFullYear(), day.getMonth(), day.getDate() - Math.max(0, Number(m[1]) - 1))
  m = /^(\d{1,5})h$/.exec(w)
  if (m) return new Date(now.getTime() - Number(m[1]) * 3_600_000)
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w)
  if (m) {
    const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
    return d.getMonth() === Number(m[2]) - 1 ? d : null
  }
  if (/^\d{4}-\d{2}-\d{2}t/.test(w)) {
    const ms = Date.parse(word.trim())
    return Number.isNaN(ms) ? null : new Date(ms)
  }
  return null
}
