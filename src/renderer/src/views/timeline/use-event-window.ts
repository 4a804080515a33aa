/**
 * Binds an EventWindow to the contract: pages through `hub.list` (previewed bodies, rowid
 * cursors), and pages new rows in when `hub.events` says another process wrote to this hub or
 * this window wrote itself. Pushed rows that follow the window's newest row with no gap (an
 * unfiltered timeline) are shown as they arrive; anything else is caught up through `hub.list`
 * from the window's cursor, once per animation frame.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import type { MethodInput } from '../../../../shared/api'
import { client } from '../../api/client'
import { SEQ_CURSORS, hubSel, onHubWritten } from '../../api/hub-queries'
import { EventWindow, type PageRequest, type WindowSnapshot } from './event-window'
import type { TimelineEvent } from './hub-types'
import { activeFilters, noFilters, queryKeyOf, type TimelineQuery } from './timeline-query'

type ListInput = MethodInput<'hub.list'>

/** Filter values as `hub.list` takes them: comma-separated values become an OR list. */
export function filterInput(query: TimelineQuery): Partial<ListInput> {
  const out: Record<string, string | string[]> = {}
  for (const [field, value] of Object.entries(activeFilters(query.filters))) {
    if (field === 'text') {
      out.text = value
      continue
    }
    const parts = value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
    if (parts.length) out[field] = parts.length === 1 ? parts[0]! : parts
  }
  return out as Partial<ListInput>
}

/** What the screen gets: the window, its snapshot, the total when known, and live activity. */
export interface EventWindowState {
  win: EventWindow<TimelineEvent>
  snap: WindowSnapshot
  /** Matching events in the hub (null until counted). */
  total: number | null
  /** The hub folder the list reads (from the first answer). */
  palace: string | null
  /** Time of the last live row, for the live indicator. */
  lastLiveAt: number
  /** Live rows received since this query opened. */
  liveCount: number
  /** True while the previous query's rows are shown because the new one is loading. */
  stale: boolean
}

/** The page window for `query` on `hub`; `atTop` tells whether the operator sees the first row. */
export function useEventWindow(query: TimelineQuery, hub: string | null, atTop: () => boolean): EventWindowState {
  const key = queryKeyOf({ ...query, hub })
  const atTopRef = useRef(atTop)
  useEffect(() => {
    atTopRef.current = atTop
  }, [atTop])
  const [palace, setPalace] = useState<{ key: string; palace: string } | null>(null)
  const [total, setTotal] = useState<{ key: string; total: number } | null>(null)
  const [live, setLive] = useState({ key, at: 0, count: 0 })

  const { win, base } = useMemo(() => {
    const base = { ...hubSel(hub), ...filterInput(query), preview: true } as ListInput
    const fetchPage = async (req: PageRequest): Promise<TimelineEvent[]> => {
      const input: Record<string, unknown> = { ...base, order: req.order, limit: req.limit }
      if (req.before) {
        if (req.before.id) input.before_event_id = req.before.id
        else input.before_seq = req.before.seq
      }
      if (req.since) {
        if (req.since.id) input.since_event_id = req.since.id
        else input.since_seq = req.since.seq
      }
      const out = await client.call('hub.list', input as ListInput)
      setPalace((p) => (p?.key === key && p.palace === out.palace ? p : { key, palace: out.palace }))
      return out.events
    }
    const win = new EventWindow<TimelineEvent>({ fetch: fetchPage, order: query.order, dense: SEQ_CURSORS && noFilters(query.filters) })
    return { win, base }
    // The key captures hub, order and filters; `query` itself changes identity on every keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const snap = useSyncExternalStore(win.subscribe, win.getSnapshot)
  // While a new query loads its first page, the last ready window stays on screen (dimmed), so
  // the list neither flashes empty nor loses keyboard focus on every filter keystroke.
  const [readyWin, setReadyWin] = useState(win)
  if (snap.status === 'ready' && readyWin !== win) setReadyWin(win)
  const showStale = snap.status === 'loading' && readyWin !== win && readyWin.getSnapshot().status === 'ready'

  useEffect(() => {
    let alive = true
    // The total is for the header only: it is asked after the first page, so a slow count
    // (a body-text filter scans the whole stream) never delays what the operator sees first.
    void win
      .start()
      .then(() => (alive && win.getSnapshot().status === 'ready' ? client.call('hub.list', { ...base, limit: 1, count: true }) : null))
      .then(
        (out) => {
          if (alive && out && out.total !== undefined) setTotal({ key, total: out.total })
        },
        () => undefined
      )
    return () => {
      alive = false
      win.dispose()
    }
  }, [win, base, key])

  // Live: pushed rows from other processes are shown as pushed when they continue the window;
  // anything else (a gap, filters, this window's own writes) triggers a catch-up.
  const currentPalace = palace?.key === key ? palace.palace : null
  const unfiltered = noFilters(query.filters)
  useEffect(() => {
    let frame = 0
    let running = false
    let again = false
    let alive = true
    /** Rows pushed since the last frame; null once a catch-up is needed anyway. */
    let pushed: TimelineEvent[] | null = []
    const showLive = (rows: readonly TimelineEvent[]): void => {
      win.addLive(rows, atTopRef.current())
      if (win.wantsRebase && atTopRef.current()) win.rebase()
      const n = rows.length
      setLive((l) => ({ key, at: Date.now(), count: (l.key === key ? l.count : 0) + n }))
      setTotal((t) => (t && t.key === key ? { key, total: t.total + n } : t))
    }
    /** Shows pushed rows that follow the window's newest row seq by seq; false when they do not. */
    const showPushed = (rows: readonly TimelineEvent[]): boolean => {
      const cursor = win.cursor
      if (!unfiltered || running || !cursor) return false
      const fresh = rows.filter((r) => r.seq > cursor.seq).sort((a, b) => a.seq - b.seq)
      if (!fresh.length) return true
      if (fresh.some((r, i) => r.seq !== (i === 0 ? cursor.seq : fresh[i - 1]!.seq) + 1)) return false
      showLive(fresh)
      return true
    }
    const catchUp = async (): Promise<void> => {
      if (running) {
        again = true
        return
      }
      running = true
      try {
        do {
          again = false
          const cursor = win.cursor
          if (!cursor) break
          const input = { ...base, order: 'asc' as const, limit: 500, ...(cursor.id ? { since_event_id: cursor.id } : {}) }
          const out = await client.call('hub.list', input)
          if (!alive) return
          if (out.events.length) showLive(out.events)
          if (out.has_more) again = true
        } while (again && alive)
      } catch {
        // The next push or write tries again; the connection indicator reports outages.
      } finally {
        running = false
      }
    }
    const schedule = (rows: readonly TimelineEvent[] | null): void => {
      pushed = pushed && rows ? [...pushed, ...rows] : null
      if (!frame) {
        frame = requestAnimationFrame(() => {
          frame = 0
          const rows = pushed
          pushed = []
          if (!rows || !showPushed(rows)) void catchUp()
        })
      }
    }
    const unsubscribe = client.subscribe((event) => {
      if (event.name !== 'hub.events') return
      if (!(currentPalace ? event.payload.palace === currentPalace : !hub || event.payload.hub === hub)) return
      // rows that continue the window are shown at once (a push is already one batch of rows);
      // behind a frame already waiting, they wait with it, so rows keep their order
      if (frame || !showPushed(event.payload.events)) schedule(event.payload.events)
    })
    const offWritten = onHubWritten((p) => {
      if (!currentPalace || !p || p === currentPalace) schedule(null)
    })
    return () => {
      alive = false
      if (frame) cancelAnimationFrame(frame)
      unsubscribe()
      offWritten()
    }
  }, [win, base, hub, key, currentPalace, unfiltered])

  return {
    win: showStale ? readyWin : win,
    snap: showStale ? readyWin.getSnapshot() : snap,
    stale: showStale,
    total: total?.key === key ? total.total : null,
    palace: currentPalace,
    lastLiveAt: live.key === key ? live.at : 0,
    liveCount: live.key === key ? live.count : 0
  }
}
