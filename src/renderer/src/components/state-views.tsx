/** Loading, error and empty states used by every screen, so they look and behave the same. */
import type { ReactNode } from 'react'
import { CircleAlert, LoaderCircle, RefreshCw } from 'lucide-react'
import { ApiError } from '../../../shared/api-error'
import { errorMessage } from '../lib/format'

/** A quiet spinner with a label, for the first load of a screen or panel. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <LoaderCircle className="spin" size={16} aria-hidden />
      <span>{label}</span>
    </div>
  )
}

/** The error and a Retry button; `title` says what failed. */
export function ErrorState({
  title,
  error,
  onRetry,
  retrying
}: {
  title: string
  error: unknown
  onRetry: () => void
  retrying?: boolean
}) {
  return (
    <div className="state state-error" role="alert" data-testid="error-state">
      <CircleAlert size={18} aria-hidden className="state-icon" />
      <div className="state-text">
        <strong>{title}</strong>
        <code className="state-message">{errorMessage(error)}</code>
        {error instanceof ApiError && error.code === 'forbidden' && (
          <span className="muted">
            Open the address that <code>muster serve</code> printed (it carries <code>?token=…</code>) to sign this tab in.
          </span>
        )}
      </div>
      <button type="button" className="btn" onClick={onRetry} disabled={retrying}>
        <RefreshCw size={14} aria-hidden className={retrying ? 'spin' : undefined} />
        Retry
      </button>
    </div>
  )
}

/** An empty list explained, with an optional action. */
export function EmptyState({ icon, title, children }: { icon?: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      {icon && <div className="state-icon">{icon}</div>}
      <strong>{title}</strong>
      {children && <div className="state-body">{children}</div>}
    </div>
  )
}

/** An inline error under a form (API validation messages and the like). */
export function InlineError({ error }: { error: unknown }) {
  if (!error) return null
  return (
    <p className="inline-error" role="alert">
      <CircleAlert size={14} aria-hidden />
      <span>{errorMessage(error)}</span>
    </p>
  )
}
