/**
 * The Timeline: the hub's event stream, virtualised and paged by rowid cursors, filtered on every
 * field (kept in the URL hash), live, with a detail / thread / create-task pane beside it.
 */
import { useCallback, useEffect, useMemo, useRef } from 'react'
import { Activity, Inbox } from 'lucide-react'
import { BROADCAST, KNOWN_EVENT_TYPES, KNOWN_ROOMS } from '../../../../shared/api'
import { hubSel, useHubInfo, useHubOverview, useHubs } from '../../api/hub-queries'
import { useMethodQuery } from '../../api/queries'
import { Keys } from '../../components/kbd'
import { ScreenHeader } from '../../components/screen-header'
import { EmptyState, ErrorState, LoadingState } from '../../components/state-views'
import { plural } from '../../lib/format'
import { useTimelineStore } from '../../stores/timeline-store'
import { EventDetail } from './event-detail'
import { FilterBar, type FilterSuggestions } from './filter-bar'
import { HubStateBanner } from './hub-state-banner'
import { TaskForm } from './task-form'
import { ThreadView } from './thread-view'
import { TimelineList, type TimelineListHandle } from './timeline-list'
import { noFilters } from './timeline-query'
import { CreateTaskButton, HubPicker, LiveIndicator, OrderToggle, hubChoices } from './timeline-toolbar'
import { useEventWindow } from './use-event-window'
import { useTimelineKeys } from './use-timeline-keys'

/** The Timeline screen. */
export function TimelineScreen() {
  const hubs = useHubs()
  const query = useTimelineStore((s) => s.query)
  const syncFromHash = useTimelineStore((s) => s.syncFromHash)
  const choices = useMemo(() => hubChoices(hubs.data), [hubs.data])

  // A hash with a query wins (a link, a reload); otherwise the remembered query goes into the hash.
  useEffect(() => {
    syncFromHash()
    window.addEventListener('hashchange', syncFromHash)
    return () => window.removeEventListener('hashchange', syncFromHash)
  }, [syncFromHash])

  const known = query.hub === null || choices.some((c) => c.name === query.hub)
  const hub = query.hub ?? choices[0]?.name ?? null

  return (
    <section className="screen screen-fill" data-testid="screen-timeline">
      <ScreenHeader
        title="Timeline"
        description={
          <>
            Every event of the hub, newest first or oldest first. <Keys keys={['j']} /> <Keys keys={['k']} /> move, <Keys keys={['↵']} />{' '}
            details, <Keys keys={['t']} /> thread, <Keys keys={['a']} /> ack, <Keys keys={['/']} /> search.
          </>
        }
        actions={
          choices.length > 0 && (
            <>
              <HubPicker choices={choices} value={hub} />
              <OrderToggle />
              <CreateTaskButton hub={hub} />
            </>
          )
        }
      />
      {hubs.isPending ? (
        <LoadingState label="Finding hubs…" />
      ) : hubs.isError ? (
        <ErrorState title="Could not list the hubs" error={hubs.error} onRetry={() => void hubs.refetch()} retrying={hubs.isFetching} />
      ) : choices.length === 0 ? (
        <EmptyState icon={<Activity size={18} />} title="No hub yet">
          Muster reads MemPalace hubs (<code>logstream.sqlite3</code>). Register one with <code>muster hubs add &lt;palace folder&gt;</code>
          , or create the demo fleet from the command palette.
        </EmptyState>
      ) : !known ? (
        <EmptyState icon={<Activity size={18} />} title={`No hub named “${query.hub}”`}>
          <button type="button" className="btn" onClick={() => useTimelineStore.getState().setHub(null)}>
            Show the first hub
          </button>
        </EmptyState>
      ) : (
        <TimelineBody hub={hub} />
      )}
    </section>
  )
}

/** Filter bar, list and pane for one hub. */
function TimelineBody({ hub }: { hub: string | null }) {
  const query = useTimelineStore((s) => s.query)
  const selectedId = useTimelineStore((s) => s.selectedId)
  const pane = useTimelineStore((s) => s.pane)
  const threadId = useTimelineStore((s) => s.threadId)
  const action = useTimelineStore((s) => s.action)
  const select = useTimelineStore((s) => s.select)
  const openDetail = useTimelineStore((s) => s.openDetail)
  const openThread = useTimelineStore((s) => s.openThread)
  const listRef = useRef<TimelineListHandle>(null)
  const textRef = useRef<HTMLInputElement>(null)
  const atTop = useCallback(() => listRef.current?.atTop() ?? true, [])
  const { win, snap, total, lastLiveAt, liveCount, stale } = useEventWindow(query, hub, atTop)
  const overview = useHubOverview()
  const hubInfo = useHubInfo(hub)
  const tasks = useMethodQuery('hub.tasks', { ...hubSel(hub), limit: 500 })
  // each task's folded state (stuck counts as its own), for the status column of its task.request
  const taskStates = useMemo(
    () => new Map((tasks.data?.tasks ?? []).map((t) => [t.correlation_id, t.stuck ? 'stuck' : t.state] as const)),
    [tasks.data]
  )

  const agents = useMemo(() => {
    const set = new Set<string>()
    for (const h of overview.data?.hubs ?? []) for (const a of h.agents) set.add(a.agent)
    if (overview.data?.operator) set.add(overview.data.operator)
    return [...set].sort()
  }, [overview.data])
  const suggestions: FilterSuggestions = useMemo(
    () => ({ type: KNOWN_EVENT_TYPES, room: KNOWN_ROOMS, from_agent: agents, to_agent: [BROADCAST, ...agents] }),
    [agents]
  )

  const onSelect = useCallback(
    (id: string) => {
      if (useTimelineStore.getState().pane === 'detail') openDetail(id)
      else select(id)
    },
    [select, openDetail]
  )

  const keyTarget = useMemo(
    () => ({
      move: (delta: number) => {
        const current = useTimelineStore.getState().selectedId
        const at = current ? win.indexOf(current) : -1
        const next = Math.max(0, Math.min(snap.count - 1, at < 0 ? 0 : at + delta))
        const row = win.rowAt(next)
        listRef.current?.scrollToIndex(next)
        if (row) onSelect(row.id)
      },
      selectedThread: () => {
        const id = useTimelineStore.getState().selectedId
        const at = id ? win.indexOf(id) : -1
        const row = at >= 0 ? win.rowAt(at) : undefined
        return row?.correlation_id ?? null
      },
      focusText: () => textRef.current?.focus()
    }),
    [win, snap.count, onSelect]
  )
  useTimelineKeys(keyTarget)

  const selectedRow = selectedId ? win.rowAt(win.indexOf(selectedId)) : undefined
  const filtered = !noFilters(query.filters)
  const showPane = action === 'task' || (pane === 'thread' && threadId) || (pane === 'detail' && selectedId)

  return (
    <>
      <FilterBar suggestions={suggestions} textRef={textRef} onLeave={() => listRef.current?.focus()} />
      <HubStateBanner hub={hub} />
      <div className={`tl-main${showPane ? ' with-pane' : ''}`}>
        <div className={`tl-left${stale ? ' stale' : ''}`} aria-busy={stale}>
          <div className="tl-statusline" data-testid="timeline-status">
            <LiveIndicator lastLiveAt={lastLiveAt} liveCount={liveCount} hubOffline={hubInfo ? !hubInfo.online : false} />
            <span className="muted">
              {snap.status !== 'ready' || stale
                ? 'Loading…'
                : total !== null
                  ? `${total.toLocaleString()} ${filtered ? 'matching ' : ''}event${total === 1 ? '' : 's'}`
                  : snap.complete
                    ? plural(snap.count, filtered ? 'matching event' : 'event')
                    : `${snap.count.toLocaleString()}+ ${filtered ? 'matching ' : ''}events`}
            </span>
            {snap.error != null && snap.status === 'ready' && (
              <span className="text-error ellipsis">A page failed to load: {String((snap.error as Error).message ?? snap.error)}</span>
            )}
          </div>
          {snap.status === 'error' ? (
            <ErrorState title="Could not read the hub" error={snap.error} onRetry={() => void win.start()} />
          ) : snap.status === 'ready' && snap.count === 0 && snap.pending === 0 ? (
            <EmptyState icon={<Inbox size={18} />} title={filtered ? 'No event matches these filters' : 'This hub has no events yet'}>
              {filtered ? (
                <button type="button" className="btn" onClick={() => useTimelineStore.getState().clearFilters()}>
                  Clear the filters
                </button>
              ) : (
                'New events appear here as agents write them.'
              )}
            </EmptyState>
          ) : snap.status === 'loading' ? (
            <LoadingState label="Reading the newest events…" />
          ) : (
            <TimelineList
              ref={listRef}
              win={win}
              snap={snap}
              selectedId={selectedId}
              onSelect={onSelect}
              onOpen={openDetail}
              onThread={openThread}
              taskStates={taskStates}
              onShowPending={() => win.showPending()}
            />
          )}
        </div>
        {showPane && (
          <aside className="split-main tl-pane" aria-label="Details">
            {action === 'task' ? (
              <TaskForm hub={hub} agents={agents} />
            ) : pane === 'thread' && threadId ? (
              <ThreadView hub={hub} correlationId={threadId} />
            ) : selectedId ? (
              <EventDetail key={selectedId} hub={hub} id={selectedId} preview={selectedRow} />
            ) : null}
          </aside>
        )}
      </div>
    </>
  )
}
