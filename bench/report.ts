/**
 * Benchmark reporting: each figure printed beside its budget with the ratio, plus a machine
 * baseline measured in the same process so figures from different machines can be compared.
 */
import { createHash } from 'node:crypto'

/** One measured figure. */
export interface Figure {
  name: string
  value: number
  /** `x`: a ratio to a reference measured in the same run. */
  unit: 'ms' | 'MB' | 'x' | 'lines' | 'edits'
  budget: number
  note?: string
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

/** Prints the figures as an aligned table; returns true when every figure is within budget. */
export function printReport(figures: Figure[], baselineMs: number): boolean {
  const rows = figures.map((f) => {
    const ok = f.value <= f.budget
    return [
      ok ? 'ok  ' : 'OVER',
      f.name,
      `${f.unit === 'lines' || f.unit === 'edits' ? f.value : f.value.toFixed(f.value < 10 ? 2 : 0)} ${f.unit}`,
      `budget ${f.budget} ${f.unit}`,
      f.budget === 0 ? (f.value === 0 ? 'none, as required' : 'budget is none') : `${((f.value / f.budget) * 100).toFixed(0)}% of budget`,
      f.note ?? ''
    ]
  })
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  console.log(`\nmachine baseline: sha256 of 32 MiB in ${baselineMs.toFixed(1)} ms\n`)
  for (const r of rows)
    console.log(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()
    )
  console.log('')
  return figures.every((f) => f.value <= f.budget)
}

/** How a hub's event count reads in a figure's name: `1M`, `200k`, `5,000`. */
export function eventCount(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`
  if (n >= 10_000 && n % 1000 === 0) return `${n / 1000}k`
  return n.toLocaleString('en')
}
