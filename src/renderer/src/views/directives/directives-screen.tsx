/** The Directives screen: every 📡 directive across projects, filters, detail pane, pickup and send. */
import { useEffect, useMemo, useRef } from 'react'
import { Plus, Search, Send } from 'lucide-react'
import { useDirectives, useFleetStatus } from '../../api/queries'
import { Keys } from '../../components/kbd'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { goTo, roleHref } from '../../lib/muse-route'
import { countStates, queryDirectives, queryNotices } from '../../../../shared/directive-query'
import { canPickUp, primaryOccurrence, toQuery } from './directive-model'
import { DirectiveDetail } from './directive-detail'
import { DirectiveFilterBar } from './directive-filters'
import { DirectiveList } from './directive-list'
import { useDirectivesUi } from './directives-store'
import { MuseTabs } from './muse-tabs'
import { SendDirectiveDialog } from './send-directive-dialog'
import { useDirectiveKeys } from './use-directive-keys'
import { RefreshButton } from '../../components/refresh-button'

const HUB_SOURCE: Record<string, string> = {
  operator: 'set by you',
  'paths.md': 'from paths.md',
  'CLAUDE.md': 'from CLAUDE.md',
  'strategy.md': 'holds strategy.md',
  'only-project': 'the only project',
  none: ''
}

/** The screen. */
export function DirectivesScreen({ openSend = false }: { openSend?: boolean }) {
  const query = useDirectives()
  const fleet = useFleetStatus()
  const ui = useDirectivesUi()
  const searchRef = useRef<HTMLInputElement>(null)
  const data = query.data
  const setSendOpen = ui.setSendOpen

  // `#/directives?send=1` (from the command palette) opens the send dialog once.
  useEffect(() => {
    if (!openSend) return
    setSendOpen(true)
    window.history.replaceState(window.history.state, '', '#/directives')
  }, [openSend, setSendOpen])

  const all = useMemo(() => data?.directives ?? [], [data])
  const { project, role, text, state } = ui
  // the same query the core answers `muse.directives` with; the state counts ignore the state filter
  const counts = useMemo(() => countStates(queryDirectives(all, toQuery({ project, role, text }))), [all, project, role, text])
  const visible = useMemo(() => queryDirectives(all, toQuery({ project, role, text }, state)), [all, project, role, text, state])
  const notices = useMemo(
    () => queryNotices(data?.notices ?? [], toQuery({ project, role, text }, state)),
    [data, project, role, text, state]
  )
  const projects = useMemo(() => (fleet.data ?? []).map((p) => p.name), [fleet.data])
  const roles = useMemo(() => [...new Set((fleet.data ?? []).flatMap((p) => p.roles.map((r) => r.role)))].sort(), [fleet.data])

  // The selection survives refetches by key; when it is filtered away the first row takes over.
  const found = visible.findIndex((d) => d.key === ui.selected)
  const index = found >= 0 ? found : visible.length ? 0 : -1
  const selected = index >= 0 ? visible[index]! : null
  // The row shown selected without a click (the first) is pinned by key: a pickup re-sorts the
  // list, and the detail pane, with what the pickup wrote, must stay on the directive picked up.
  const pinned = ui.selected
  const selectKey = ui.select
  useEffect(() => {
    if (selected && pinned === null) selectKey(selected.key)
  }, [selected, pinned, selectKey])

  const openRole = (i: number): void => {
    const src = visible[i] && primaryOccurrence(visible[i])
    if (src) goTo(roleHref(src.project, src.role, src.line))
  }

  useDirectiveKeys({
    move: (delta) => {
      if (!visible.length) return
      const next = Math.max(0, Math.min(visible.length - 1, index + delta))
      ui.select(visible[next]!.key)
    },
    open: () => openRole(index),
    pickup: () => {
      if (selected && canPickUp(selected)) ui.setConfirming(selected.key)
    },
    confirm: () => document.querySelector<HTMLButtonElement>('[data-testid="pickup-confirm"]')?.click(),
    cancel: () => {
      if (!ui.confirming) return false
      ui.setConfirming(null)
      return true
    },
    send: () => ui.setSendOpen(true),
    search: () => searchRef.current?.focus(),
    confirming: !!selected && ui.confirming === selected.key
  })

  const hub = data?.hub
  const description = (
    <>
      Every 📡 directive in every project’s role files, live.{' '}
      {hub?.project ? (
        <span title="Bare ROLE targets resolve to this project">
          Hub project <strong>{hub.project}</strong>
          {HUB_SOURCE[hub.source] ? ` (${HUB_SOURCE[hub.source]})` : ''}.
        </span>
      ) : hub ? (
        <span className="text-error">No hub project found: bare ROLE targets do not resolve.</span>
      ) : null}
    </>
  )

  return (
    <section className="screen screen-fill" data-testid="screen-directives">
      <ScreenHeader
        title="Directives"
        description={description}
        actions={
          <>
            <MuseTabs current="directives" pending={all.filter((d) => d.state === 'pending').length} />
            <RefreshButton query={query} label="Refresh" title="Refresh now (updates also arrive live)" />
            <button type="button" className="btn btn-primary" onClick={() => ui.setSendOpen(true)} data-testid="send-directive">
              <Send size={14} aria-hidden /> Send directive <Keys keys={['n']} />
            </button>
          </>
        }
      />
      {query.isPending ? (
        <LoadingState label="Reading role files…" />
      ) : !data ? (
        <ErrorState
          title="Could not read the directives"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : (
        <>
          {query.isError && (
            <ErrorState
              title="Refreshing failed; showing the last directives read"
              error={query.error}
              onRetry={() => void query.refetch()}
              retrying={query.isFetching}
            />
          )}
          <DirectiveFilterBar counts={counts} projects={projects} roles={roles} searchRef={searchRef} />
          <div className="screen-split dir-split">
            <div className="split-main dir-main">
              {all.length === 0 ? (
                <EmptyState icon={<Send size={18} />} title="No directives yet">
                  No role file of the registered projects contains a 📡 directive.{' '}
                  <button type="button" className="link-btn" onClick={() => ui.setSendOpen(true)}>
                    Send the first one
                  </button>
                  .
                </EmptyState>
              ) : visible.length === 0 ? (
                <EmptyState icon={<Search size={18} />} title="No directive matches these filters">
                  <button type="button" className="btn" onClick={ui.clearFilters}>
                    Clear the filters
                  </button>
                </EmptyState>
              ) : (
                <DirectiveList items={visible} selectedIndex={index} onSelect={(i) => ui.select(visible[i]!.key)} onOpen={openRole} />
              )}
              <footer className="dir-foot">
                <span>
                  {visible.length === all.length
                    ? plural(all.length, 'directive')
                    : `${visible.length} of ${plural(all.length, 'directive')}`}
                  {notices.length > 0 && (
                    <span
                      className="muted"
                      title="Cross-role notices (no S-id) are listed in each role file’s viewer"
                      data-testid="notice-count"
                    >
                      {' '}
                      · {plural(notices.length, 'notice')}
                    </span>
                  )}
                </span>
                <span className="dir-keys" aria-label="Keyboard shortcuts">
                  <Keys keys={['j', 'k']} /> move <Keys keys={['↵']} /> open role file <Keys keys={['p']} /> pick up <Keys keys={['n']} />{' '}
                  new <Keys keys={['/']} /> filter
                </span>
              </footer>
            </div>
            {selected ? (
              <DirectiveDetail key={selected.key} d={selected} />
            ) : (
              <aside className="split-side dir-detail dir-detail-empty">
                <Plus size={16} aria-hidden className="faint" />
                <span className="muted">Select a directive to see its body and pick it up.</span>
              </aside>
            )}
          </div>
        </>
      )}
      <SendDirectiveDialog />
    </section>
  )
}
