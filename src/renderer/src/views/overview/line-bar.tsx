/** Line count with a tiny bar measured against the 500 (warning) and 800 (error) thresholds. */
import type { SizeLevel } from '../../../../shared/api'

/** The bar's full width stands for this many lines, so both thresholds are visible as ticks. */
const SCALE_LINES = 1000

/** `412 ▮▮▮▯▯` — number plus a coloured bar. */
export function LineBar({ lines, level, bytes }: { lines: number; level: SizeLevel; bytes: string }) {
  const pct = Math.min(100, (lines / SCALE_LINES) * 100)
  const what =
    level === 'error' ? 'over 800 lines: archive it' : level === 'warning' ? 'over 500 lines: directives get buried' : 'under 500 lines'
  return (
    <span className={`linebar linebar-${level}`} title={`${lines} lines, ${bytes} (${what})`}>
      <span className="linebar-num">{lines}</span>
      <span className="linebar-track" aria-hidden>
        <span className="linebar-fill" style={{ width: `${pct}%` }} />
        <span className="linebar-tick" style={{ left: '50%' }} />
        <span className="linebar-tick" style={{ left: '80%' }} />
      </span>
    </span>
  )
}
