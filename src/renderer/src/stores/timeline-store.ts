/**
 * UI state of the Timeline screen: the query (mirrored into the URL hash), the selected event,
 * which side pane is open and which action form. Rows themselves live in the page window.
 */
import { create } from 'zustand'
import { hashParams } from '../../../shared/links'
import {
  EMPTY_QUERY,
  hashOfQuery,
  queryFromHash,
  type FilterField,
  type TimelineOrder,
  type TimelineQuery
} from '../views/timeline/timeline-query'

/** The side pane: the selected event's detail, or a correlation id's thread. */
export type TimelinePane = 'detail' | 'thread' | null
/** The open action form, if any. */
export type TimelineAction = 'ack' | 'reply' | 'task' | null

interface TimelineState {
  query: TimelineQuery
  selectedId: string | null
  pane: TimelinePane
  /** Correlation id shown in the thread pane. */
  threadId: string | null
  action: TimelineAction
  setFilter: (field: FilterField, value: string) => void
  clearFilters: () => void
  setOrder: (order: TimelineOrder) => void
  setHub: (hub: string | null) => void
  /** Replaces the whole query (from a link or the hash). */
  setQuery: (query: TimelineQuery) => void
  select: (id: string | null) => void
  openDetail: (id: string) => void
  openThread: (correlationId: string) => void
  setAction: (action: TimelineAction) => void
  closePane: () => void
  /** Reads the query from the hash when it carries one. */
  syncFromHash: () => void
}

function writeHash(query: TimelineQuery): void {
  const hash = hashOfQuery(query)
  // replaceState: typing a filter should not push one history entry per key.
  if (window.location.hash.startsWith('#/timeline') && window.location.hash !== hash) {
    history.replaceState(null, '', hash)
  }
}

/** The Timeline's store. */
export const useTimelineStore = create<TimelineState>((set, get) => {
  const apply = (query: TimelineQuery): void => {
    writeHash(query)
    set({ query })
  }
  return {
    query: queryFromHash(window.location.hash) ?? EMPTY_QUERY,
    selectedId: null,
    pane: null,
    threadId: null,
    action: null,
    setFilter: (field, value) => apply({ ...get().query, filters: { ...get().query.filters, [field]: value } }),
    clearFilters: () => apply({ ...get().query, filters: {} }),
    setOrder: (order) => apply({ ...get().query, order }),
    setHub: (hub) => apply({ ...get().query, hub }),
    setQuery: (query) => apply(query),
    select: (selectedId) => set({ selectedId }),
    // A half-written ack or reply belongs to the event it was opened on; a task form stays open.
    openDetail: (id) => set((s) => ({ selectedId: id, pane: 'detail', action: s.action === 'task' ? 'task' : null })),
    openThread: (threadId) => set({ threadId, pane: 'thread', action: null }),
    setAction: (action) => set({ action }),
    closePane: () => {
      const { action, pane } = get()
      if (action) set({ action: null })
      else if (pane) set({ pane: null })
    },
    syncFromHash: () => {
      const q = queryFromHash(window.location.hash)
      if (q && hashOfQuery(q) !== hashOfQuery(get().query)) set({ query: q })
      // a link to one event or one thread (shared/links: eventLink, threadLink) opens it in the pane
      const params = hashParams(window.location.hash)
      const thread = params.get('thread')
      const event = params.get('event')
      if (thread) get().openThread(thread)
      else if (event) get().openDetail(event)
      // A bare `#/timeline` (sidebar, `g t`) keeps the current filters: put them back in the URL.
      if (!q) writeHash(get().query)
    }
  }
})

/** Link target for the Timeline with a query (used by the Overview). */
export function timelineHref(query: Partial<TimelineQuery>): string {
  return hashOfQuery({ ...EMPTY_QUERY, ...query })
}
