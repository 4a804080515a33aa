/** The fleet overview: totals, toolbar and one card per registered project. */
import { useEffect, useMemo } from 'react'
import { FolderPlus, FolderSearch, Plug, Search } from 'lucide-react'
import { goTo } from '../../lib/muse-route'
import { useFleetStatus } from '../../api/queries'
import { ActionButton } from '../../components/action-button'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { useUiStore } from '../../stores/ui-store'
import { useElementWidth } from '../../hooks/use-element-width'
import { openAfterNextPaint } from '../../lib/first-paint'
import { columnCount, packColumns } from './card-layout'
import { fleetTotals, matchesFilter } from './fleet-stats'
import { FleetTotalsStrip } from './fleet-totals'
import { HubSection } from './hub-section'
import { NeedsPanel } from './needs-panel'
import { PresenceBanner } from './presence-banner'
import { SessionsPanel } from './sessions-panel'
import { GatesPanel } from './gates-panel'
import { UsagePanel } from './usage-panel'
import { FirstRun } from './first-run'
import { useAttention, useCrossFileLint } from './attention'
import type { CardFinding } from './findings-list'
import { ProjectCard } from './project-card'
import { SearchBox } from '../../components/search-box'
import { RefreshButton } from '../../components/refresh-button'

/** Shared empty list, so cards without lint findings keep a stable prop. */
const NO_FINDINGS: readonly CardFinding[] = []

/** Placeholder cards while the first `fleet.status` is in flight. */
function SkeletonGrid() {
  return (
    <div className="grid" role="status" aria-label="Loading the fleet">
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="card skeleton">
          <span className="sk sk-title" />
          <span className="sk sk-line" />
          <span className="sk sk-line" />
          <span className="sk sk-line short" />
        </div>
      ))}
    </div>
  )
}

/** The Overview screen. */
export function OverviewScreen() {
  const fleet = useFleetStatus()
  const openProjectDialog = useUiStore((s) => s.openProjectDialog)
  const filter = useUiStore((s) => s.overviewFilter)
  const setFilter = useUiStore((s) => s.setOverviewFilter)
  const [gridRef, gridWidth] = useElementWidth()
  const columns = columnCount(gridWidth)

  const data = fleet.data
  const totals = useMemo(() => (data ? fleetTotals(data) : null), [data])
  const visible = useMemo(() => (data ? data.filter((p) => matchesFilter(p, filter)) : []), [data, filter])
  const names = useMemo(() => (data ?? []).map((p) => p.name), [data])
  const attention = useAttention(names)
  const lint = useCrossFileLint()
  const packed = useMemo(() => packColumns(visible, columns), [visible, columns])
  const hasProjects = !!data && data.length > 0
  // the cards (or the empty or error state) are committed: what they do not need waits until they painted
  const settled = !fleet.isPending
  useEffect(() => {
    if (settled) openAfterNextPaint()
  }, [settled])

  const actions = hasProjects && (
    <>
      <SearchBox
        value={filter}
        onChange={setFilter}
        placeholder="Filter projects, roles, L0 text…"
        label="Filter projects"
        testId="overview-filter"
        clearLabel="Clear filter"
      />
      <ActionButton icon={FolderSearch} onClick={() => openProjectDialog('scan')} testId="open-scan-folder">
        Scan folder
      </ActionButton>
      <ActionButton icon={FolderPlus} className="btn btn-primary" onClick={() => openProjectDialog('add')} testId="open-add-project">
        Add project
      </ActionButton>
      <button
        type="button"
        className="btn-icon"
        onClick={() => goTo('#/connect')}
        aria-label="Connect agents"
        title="Connect agents: install Muster's approvals gate into the harnesses on this machine"
        data-testid="overview-connect"
      >
        <Plug size={14} />
      </button>
      <RefreshButton query={fleet} label="Refresh" title="Refresh now (updates also arrive live)" />
    </>
  )

  return (
    <section className="screen" data-testid="screen-overview">
      <ScreenHeader
        title="Overview"
        description={hasProjects ? 'Every project’s role files and their L0 status lines, updated live as agents write them.' : undefined}
        actions={actions}
      />
      <PresenceBanner />
      {/* one element in every state, measured while the fleet loads: the cards' first render has its column count */}
      <div ref={gridRef} className="grid-measure" aria-hidden />
      {fleet.isPending ? (
        <SkeletonGrid />
      ) : !data ? (
        <ErrorState title="Could not load the fleet" error={fleet.error} onRetry={() => void fleet.refetch()} retrying={fleet.isFetching} />
      ) : !hasProjects ? (
        <>
          <FirstRun />
          {/* hubs need no project: a registered hub (a server, say) shows before any project does */}
          <div className="first-run first-run-hubs">
            <NeedsPanel />
            <SessionsPanel />
            <GatesPanel />
            <UsagePanel />
            <HubSection />
          </div>
        </>
      ) : (
        <>
          <NeedsPanel />
          <SessionsPanel />
          <GatesPanel />
          <UsagePanel />
          {totals && <FleetTotalsStrip totals={totals} />}
          <HubSection />
          {fleet.isError && (
            <ErrorState
              title="Refreshing failed; showing the last data received"
              error={fleet.error}
              onRetry={() => void fleet.refetch()}
              retrying={fleet.isFetching}
            />
          )}
          {visible.length === 0 ? (
            <EmptyState icon={<Search size={18} />} title={`No project matches “${filter}”`}>
              <button type="button" className="btn" onClick={() => setFilter('')}>
                Clear the filter
              </button>
            </EmptyState>
          ) : (
            <>
              {filter && (
                <p className="filter-note muted">
                  {plural(visible.length, 'project')} of {data.length} match
                </p>
              )}
              <div className="masonry" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
                {packed.map((col, i) => (
                  <div className="masonry-col" key={i}>
                    {col.map((p) => (
                      <ProjectCard key={p.name} project={p} attention={attention} lint={lint.get(p.name) ?? NO_FINDINGS} />
                    ))}
                  </div>
                ))}
              </div>
            </>
          )}
        </>
      )}
    </section>
  )
}
