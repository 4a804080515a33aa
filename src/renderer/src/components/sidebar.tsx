/** Left navigation: brand, one link per screen, palette hint and the connection indicator. */
import { Command } from 'lucide-react'
import { useNeeds } from '../api/needs-queries'
import { SCREENS, sidebarEntry } from '../lib/screens'
import { useUiStore } from '../stores/ui-store'
import { ConnectionStatus } from './connection-status'
import { Keys, MOD_KEY } from './kbd'

/** The app's sidebar. Items are real links (`#/overview`), reachable with Tab. */
export function Sidebar() {
  const screen = sidebarEntry(useUiStore((s) => s.screen))
  const setPaletteOpen = useUiStore((s) => s.setPaletteOpen)
  const needs = useNeeds().data
  const total = needs?.count ?? 0
  const approvals = needs?.counts.approval ?? 0
  return (
    <nav className="sidebar" aria-label="Screens">
      <div className="brand">
        <span className="brand-mark" aria-hidden>
          M
        </span>
        <span className="brand-name">Muster</span>
      </div>
      <ul className="nav-list">
        {SCREENS.map((s) => {
          const Icon = s.icon
          const active = s.id === screen
          return (
            <li key={s.id}>
              <a
                href={`#/${s.id}`}
                className={`nav-item${active ? ' active' : ''}`}
                aria-current={active ? 'page' : undefined}
                data-testid={`nav-${s.id}`}
                title={`${s.label} (g ${s.chord} or ${s.digit})`}
              >
                <Icon size={16} aria-hidden />
                <span className="nav-label">{s.label}</span>
                {!s.ready && <span className="nav-soon">soon</span>}
                {s.id === 'overview' && total > 0 && (
                  <span className="nav-badge" data-testid="needs-badge" aria-label={`${total} need${total === 1 ? 's' : ''} you`}>
                    {total}
                  </span>
                )}
                {s.id === 'approvals' && approvals > 0 && (
                  <span className="nav-badge" data-testid="approvals-badge" aria-label={`${approvals} waiting`}>
                    {approvals}
                  </span>
                )}
                <span className="nav-digit" aria-hidden>
                  {s.digit}
                </span>
              </a>
            </li>
          )
        })}
      </ul>
      <div className="sidebar-footer">
        <button type="button" className="palette-hint" onClick={() => setPaletteOpen(true)}>
          <Command size={14} aria-hidden />
          <span>Commands</span>
          <Keys keys={[MOD_KEY, 'K']} />
        </button>
        <ConnectionStatus />
      </div>
    </nav>
  )
}
