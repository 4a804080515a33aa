/** A form's submit button that turns its icon into a spinner while the request is under way. */
import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import { LoaderCircle } from 'lucide-react'

/** Disabled while `busy` (and when `disabled`); `icon` shows, a spinner instead while busy. */
export function SubmitButton({
  busy,
  icon: Icon,
  disabled,
  className = 'btn btn-primary',
  title,
  testId,
  children
}: {
  busy: boolean
  icon: LucideIcon
  disabled?: boolean
  className?: string
  title?: string | null
  testId?: string
  children: ReactNode
}) {
  return (
    <button type="submit" className={className} disabled={busy || disabled} title={title ?? undefined} data-testid={testId}>
      {busy ? <LoaderCircle size={14} className="spin" aria-hidden /> : <Icon size={14} aria-hidden />}
      {children}
    </button>
  )
}
