/**
 * Makes the hub overview agree with the needs-you queue: an agent "needs me" exactly when the
 * queue holds an item of it in that hub, and the chip's age is its oldest item's wait (never its
 * presence age); an agent the per-hub rule marked but the queue does not hold goes back to
 * working or idle. Each hub card gets its part of the queue: count, oldest wait, unread direct
 * messages apart from broadcasts.
 */
import type { MethodOutput } from '../../shared/api'
import type { NeedsList } from '../../shared/contract/needs-types'
import { ACTIVE_WITHIN_MS } from '../hub/overview'

type Overview = MethodOutput<'hub.overview'>

/** The overview with the queue laid over it. */
export function overlayNeeds(overview: Overview, needs: NeedsList, now = Date.now()): Overview {
  return {
    ...overview,
    hubs: overview.hubs.map((h) => {
      const mine = needs.items.filter((i) => i.palace === h.palace)
      const src = needs.sources.find((s) => s.palace === h.palace)
      const agents = h.agents.map((a) => {
        const items = mine.filter((i) => i.agent === a.agent)
        if (items.length) {
          const oldest = items[0]!
          const reason = items.length === 1 ? oldest.title : `${items.length} items waiting; oldest: ${oldest.title}`
          return { ...a, state: 'needs-me' as const, reason, needs: { count: items.length, since: oldest.since, title: oldest.title } }
        }
        if (a.state !== 'needs-me') return { ...a, needs: null }
        const working = a.claimed > a.stuck || (a.last_seen_at !== null && now - Date.parse(a.last_seen_at) <= ACTIVE_WITHIN_MS)
        return {
          ...a,
          state: working ? ('working' as const) : ('idle' as const),
          reason:
            a.claimed > a.stuck
              ? `${a.claimed - a.stuck} claimed task${a.claimed - a.stuck > 1 ? 's' : ''}`
              : working
                ? 'active in the last 15 min'
                : 'nothing waiting on you',
          needs: null
        }
      })
      return {
        ...h,
        agents,
        approvals_waiting: h.ok ? mine.filter((i) => i.kind === 'approval').length : h.approvals_waiting,
        needs: {
          count: mine.length,
          oldest_since: mine[0]?.since ?? null,
          unread_direct: src?.unread?.direct ?? 0,
          unread_broadcast: src?.unread?.broadcast ?? 0
        }
      }
    })
  }
}
