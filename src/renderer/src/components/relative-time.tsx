/** "2 min ago", with the exact ISO time in the tooltip; re-renders as time passes. */
import { useNow } from '../hooks/use-now'
import { relativeTime, shortAge } from '../lib/format'

/** A `<time>` element showing how long ago `iso` was; `compact` drops "ago" for table cells. */
export function RelativeTime({ iso, className, compact }: { iso: string; className?: string; compact?: boolean }) {
  const now = useNow()
  return (
    <time dateTime={iso} title={iso} className={className ? `reltime ${className}` : 'reltime'}>
      {compact ? shortAge(iso, now) : relativeTime(iso, now)}
    </time>
  )
}
