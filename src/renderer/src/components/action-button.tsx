/**
 * The buttons with an icon before their label: a form's submit button and a plain action button.
 * While `busy` the icon turns into a spinner and the button is disabled.
 */
import type { ReactNode } from 'react'
import type { LucideIcon } from 'lucide-react'
import { LoaderCircle } from 'lucide-react'

type IconButtonProps = {
  icon: LucideIcon
  /** The icon's size in pixels (14 unless a smaller button wants less). */
  iconSize?: number
  busy?: boolean
  disabled?: boolean
  className?: string
  title?: string | null
  testId?: string
  children: ReactNode
}

function IconButton({
  type,
  onClick,
  icon: Icon,
  iconSize = 14,
  busy = false,
  disabled,
  className,
  title,
  testId,
  children
}: IconButtonProps & { type: 'submit' | 'button'; onClick?: () => void }) {
  return (
    <button type={type} className={className} onClick={onClick} disabled={busy || disabled} title={title ?? undefined} data-testid={testId}>
      {busy ? <LoaderCircle size={iconSize} className="spin" aria-hidden /> : <Icon size={iconSize} aria-hidden />}
      {children}
    </button>
  )
}

/** A form's submit button (`.btn btn-primary` unless `className` says otherwise). */
export function SubmitButton({ className = 'btn btn-primary', ...props }: IconButtonProps & { busy: boolean }) {
  return <IconButton type="submit" className={className} {...props} />
}

/** A `.btn` (unless `className` says otherwise) that calls `onClick`. */
export function ActionButton({ className = 'btn', ...props }: IconButtonProps & { onClick: () => void }) {
  return <IconButton type="button" className={className} {...props} />
}
