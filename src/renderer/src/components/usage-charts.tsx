/**
 * Small hand-made charts of usage (CSS bars, no chart library): tokens per day as columns, and
 * groups (projects, agents, harnesses, models) as horizontal bars with their figures beside. Each
 * chart is a list whose items say in words what the bars draw, so a screen reader reads the
 * figures and not the shapes.
 */
import type { ReactNode } from 'react'
import { fullTokens, shortTokens, usd } from '../../../shared/usage/format'

/** One day's column. */
export interface DayBar {
  day: string
  total: number
  usd: number | null
}

/** `2026-12-07` as a short label (`Mon` in a week, `7` in a month) and a long one. */
function dayLabel(day: string, week: boolean): { short: string; long: string } {
  const d = new Date(`${day}T12:00:00`)
  return {
    short: d.toLocaleDateString('en-US', week ? { weekday: 'short' } : { day: 'numeric' }),
    long: d.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })
  }
}

/** Tokens per day as columns (oldest first), today's marked; each column's tokens above it. */
export function DayColumns({ days, label, today, testId }: { days: readonly DayBar[]; label: string; today?: string; testId?: string }) {
  const max = Math.max(1, ...days.map((d) => d.total))
  return (
    <ol
      className="day-columns"
      aria-label={label}
      data-testid={testId}
      style={{ gridTemplateColumns: `repeat(${days.length}, minmax(0, 1fr))` }}
    >
      {days.map((d) => {
        const l = dayLabel(d.day, days.length <= 7)
        const words = `${l.long}: ${fullTokens(d.total)} tokens${d.usd !== null ? `, ~${usd(d.usd)} estimated` : ''}`
        return (
          <li
            key={d.day}
            className={`day-column${d.day === today ? ' day-today' : ''}`}
            title={words}
            data-day={d.day}
            data-total={d.total}
          >
            <span className="sr-only">{words}</span>
            <span className="day-value" aria-hidden>
              {d.total ? shortTokens(d.total) : ''}
            </span>
            <span className="day-track" aria-hidden>
              <span className="day-bar" style={{ height: `${d.total ? Math.max(3, (d.total / max) * 100) : 0}%` }} />
            </span>
            <span className="day-label" aria-hidden>
              {l.short}
            </span>
          </li>
        )
      })}
    </ol>
  )
}

/** One group's bar: its name, the share it draws, and what is said beside it. */
export interface GroupBar {
  key: string
  name: ReactNode
  value: number
  figures: ReactNode
  /** Beside the bar, muted (today's figure). */
  aside?: ReactNode
  /** Instead of a bar (a harness that records no usage): the reason, muted. */
  note?: ReactNode
}

/** Groups as horizontal bars, the largest value the full width. */
export function GroupBars({ rows, label, testId }: { rows: readonly GroupBar[]; label: string; testId?: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value))
  return (
    <ul className="group-bars" aria-label={label} data-testid={testId}>
      {rows.map((r) => (
        <li key={r.key} className="group-bar" data-key={r.key}>
          <span className="group-name">{r.name}</span>
          {r.note ? (
            <span className="group-note muted">{r.note}</span>
          ) : (
            <>
              <span className="group-figures">{r.figures}</span>
              <span className="group-track" aria-hidden>
                <span className="group-fill" style={{ width: `${r.value ? Math.max(2, (r.value / max) * 100) : 0}%` }} />
              </span>
              {r.aside && <span className="group-aside muted">{r.aside}</span>}
            </>
          )}
        </li>
      ))}
    </ul>
  )
}
