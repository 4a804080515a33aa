/**
 * Benchmark reporting: each figure printed beside its budget with the ratio, the median and the
 * spread of its runs, plus a machine baseline measured in the same process so figures from
 * different machines can be compared. A figure whose spread is larger than its distance to the
 * budget is marked: on that run, noise alone could have put it on either side of the budget.
 */
import { createHash } from 'node:crypto'
import { availableParallelism, loadavg } from 'node:os'

/** One measured figure. */
export interface Figure {
  name: string
  value: number
  /** `x`: a ratio to a reference measured in the same run. */
  unit: 'ms' | 'MB' | 'KB' | 'x' | 'lines' | 'edits'
  budget: number
  note?: string
  /**
   * Every run's value, in the figure's unit (for a ratio, each interleaved round's ratio): the
   * report prints their median and spread. Absent for a figure measured once or counted.
   */
  runs?: number[]
}

/** The spread of a figure's runs: the interquartile range (robust to the odd stalled run). */
export interface Spread {
  median: number
  p25: number
  p75: number
  /** p75 - p25. */
  iqr: number
}

/** Median and interquartile range of runs, or null for fewer than 3 runs. */
export function spreadOf(runs: number[] | undefined): Spread | null {
  if (!runs || runs.length < 3) return null
  const p25 = quantile(runs, 0.25)
  const p75 = quantile(runs, 0.75)
  return { median: median(runs), p25, p75, iqr: p75 - p25 }
}

/** True when the spread of the runs is larger than the figure's distance to its budget. */
export function noisy(f: Figure): boolean {
  const s = spreadOf(f.runs)
  return !!s && f.budget > 0 && s.iqr > Math.abs(f.budget - f.value)
}

/** The share of its budget a figure within budget leaves below it, under which the issue-24 margin (20%) is not met. */
export const MARGIN = 0.2

/** One line under the table: how many figures are over budget, noisy (`~`), and within budget by less than MARGIN. */
export function summaryLine(figures: Figure[]): string {
  const over = figures.filter((f) => f.value > f.budget).length
  const thin = figures.filter((f) => f.budget > 0 && f.value <= f.budget && f.value > f.budget * (1 - MARGIN)).length
  const noise = figures.filter(noisy).length
  return `${figures.length} figures: ${over} over budget, ${thin} within budget by less than ${MARGIN * 100}%, ${noise} marked ~`
}

/** Linear-interpolated quantile (0-1) of a list of numbers. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b)
  const at = (s.length - 1) * q
  const lo = Math.floor(at)
  return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (at - lo)
}

/** Median of a list of numbers. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** Percentile (0-100) of a list of numbers, nearest-rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!
}

/** Time of a fixed CPU task (sha256 of 32 MiB), to compare machines. */
export function machineBaselineMs(): number {
  const buf = Buffer.alloc(32 * 1024 * 1024, 7)
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    createHash('sha256').update(buf).digest()
    times.push(performance.now() - t)
  }
  return median(times)
}

/** A value in a figure's unit, as printed. */
function amount(f: Figure, v: number): string {
  if (f.unit === 'lines' || f.unit === 'edits') return `${v} ${f.unit}`
  return `${v.toFixed(v < 10 ? 2 : 0)} ${f.unit}`
}

/** The spread column: the interquartile range of the runs and the runs' median when the figure is not it. */
function spreadText(f: Figure): string {
  const s = spreadOf(f.runs)
  if (!s) return '-'
  const iqr = `IQR ${amount(f, s.iqr).replace(/ \S+$/, '')} (${amount(f, s.p25).replace(/ \S+$/, '')}-${amount(f, s.p75)})`
  return Math.abs(s.median - f.value) > 1e-9 ? `${iqr}, median ${amount(f, s.median)}` : iqr
}

/**
 * Prints the figures as an aligned table: verdict, name, figure (the median of its runs unless
 * its name says otherwise, such as a p95), the spread of its runs, budget, share of budget, note.
 * A figure marked `~` has a spread larger than its margin to the budget. Returns true when every
 * figure is within budget.
 */
export function printReport(figures: Figure[], baselineMs: number): boolean {
  const rows = figures.map((f) => {
    const ok = f.value <= f.budget
    return [
      `${ok ? 'ok' : 'OVER'}${noisy(f) ? ' ~' : ''}`,
      f.name,
      amount(f, f.value),
      spreadText(f),
      `budget ${f.budget} ${f.unit}`,
      f.budget === 0 ? (f.value === 0 ? 'none, as required' : 'budget is none') : `${((f.value / f.budget) * 100).toFixed(0)}% of budget`,
      f.note ?? ''
    ]
  })
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  console.log(`\nmachine baseline: sha256 of 32 MiB in ${baselineMs.toFixed(1)} ms; ${loadLine()}\n`)
  for (const r of rows)
    console.log(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()
    )
  if (figures.some(noisy))
    console.log('\n~ : the spread of the runs (IQR) is larger than the distance to the budget: noise alone could flip the verdict')
  console.log(`\n${summaryLine(figures)}\n`)
  return figures.every((f) => f.value <= f.budget)
}

/** How a hub's event count reads in a figure's name: `1M`, `200k`, `5,000`. */
export function eventCount(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`
  if (n >= 10_000 && n % 1000 === 0) return `${n / 1000}k`
  return n.toLocaleString('en')
}

/**
 * The machine's load as the report ends: a load average above the core count means other work
 * shared the cores while the figures were measured (a quiet run reads near 0).
 */
export function loadLine(): string {
  const [one, five] = loadavg()
  return `load average ${one!.toFixed(2)} (1 min), ${five!.toFixed(2)} (5 min) on ${availableParallelism()} cores`
}
