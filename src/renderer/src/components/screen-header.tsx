/** The title row at the top of every screen, with optional actions on the right. */
import type { ReactNode } from 'react'

/** Screen title, one-line description and actions. */
export function ScreenHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="screen-header">
      <div className="screen-header-text">
        <h1>{title}</h1>
        {description && <p className="muted">{description}</p>}
      </div>
      {actions && <div className="screen-header-actions">{actions}</div>}
    </header>
  )
}
