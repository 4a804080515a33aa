/** The side list of a role file's directives and cross-role notices, with their states. */
import { ArrowRight } from 'lucide-react'
import type { DirectiveOccurrence, DirectiveState, Notice } from '../../../../shared/api'
import { DirectiveStateBadge, MarkBadge } from '../directives/state-badge'
import { Visible } from '../../components/visible'
import { visibleTitle } from '../../../../shared/visible-text'

/** One directive line of this file, with its cross-project state when the directive index knows it. */
export interface RoleDirectiveItem {
  occurrence: DirectiveOccurrence
  state: DirectiveState | null
}

/** Directives first (pending on top), then notices; clicking scrolls the file to the line. */
export function RoleDirectives({
  items,
  notices,
  onJump
}: {
  items: readonly RoleDirectiveItem[]
  notices: readonly Notice[]
  onJump: (line: number) => void
}) {
  const pending = items.filter((i) => (i.state ?? (i.occurrence.mark === 'pending' ? 'pending' : null)) === 'pending').length
  return (
    <section className="rail-panel" aria-labelledby="role-directives-title" data-testid="role-directives">
      <h3 id="role-directives-title" className="rail-title">
        📡 Directives
        <span className="rail-count num">
          {pending > 0 && <span className="text-warning">{pending} pending · </span>}
          {items.length}
        </span>
      </h3>
      {items.length === 0 ? (
        <p className="muted rail-empty">No directives in this file.</p>
      ) : (
        <ul className="rd-list">
          {items.map(({ occurrence: o, state }) => (
            <li key={o.line}>
              <button
                type="button"
                className="rd-item"
                onClick={() => onJump(o.line)}
                title={visibleTitle(`${o.id}→${o.target}: ${o.title} (line ${o.line})`)}
                data-testid={`role-directive-${o.id}`}
              >
                <span className="rd-top">
                  {state ? <DirectiveStateBadge state={state} /> : <MarkBadge mark={o.mark} />}
                  <span className="mono rd-id">{o.id}</span>
                  <ArrowRight size={11} aria-hidden className="faint" />
                  <span className="mono rd-target ellipsis">
                    <Visible text={o.target} />
                  </span>
                  <span className="rd-line num">:{o.line}</span>
                </span>
                <span className="rd-title ellipsis">
                  <Visible text={o.title || o.statusText || ' '} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {notices.length > 0 && (
        <>
          <h3 className="rail-title rail-subtitle">
            Notices <span className="rail-count num">{notices.length}</span>
          </h3>
          <ul className="rd-list">
            {notices.map((n) => (
              <li key={n.line}>
                <button
                  type="button"
                  className="rd-item"
                  onClick={() => onJump(n.line)}
                  title={`${n.from}→${n.to} ${n.date} (line ${n.line})`}
                >
                  <span className="rd-top">
                    <MarkBadge mark={n.mark} />
                    <span className="mono rd-id">
                      {n.from}→{n.to}
                    </span>
                    <span className="rd-line num">:{n.line}</span>
                  </span>
                  <span className="rd-title ellipsis">{n.statusText || n.title || n.date}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
